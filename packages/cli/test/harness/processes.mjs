// Processes of a run: test processes that ignore SIGTERM and outlive their parent must die with
// their group at the timeout, nothing of the run may be left once suture exits, and a suite that
// prints gigabytes must leave suture's memory flat while the report keeps the tail. Shared by the
// vitest suite and bench/big-output.mjs.
import { chmod, readdir, readFile, readlink, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { removeDir, runSuture, sleep, spawnSuture, tempRepoDir } from './cli.mjs';

const put = async (root, rel, content) => {
  await mkdir(join(root, rel, '..'), { recursive: true });
  await writeFile(join(root, rel), content);
};

/** A config gating `project` in place without the sandbox, so the test sees the run's real pids. */
const putInPlaceConfig = (root, project) =>
  put(
    root,
    'suture.config.json',
    JSON.stringify({
      projects: [project],
      fixers: [],
      reporters: ['json'],
      heal: { flakyReruns: 0 },
      workspace: 'in-place',
      sandbox: 'off',
    }),
  );

/** Pids of live processes whose working directory is inside `dir` (Linux /proc). */
export async function processesIn(dir) {
  const found = [];
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const cwd = await readlink(`/proc/${name}/cwd`).catch(() => undefined);
    if (cwd && (cwd === dir || cwd.startsWith(`${dir}/`))) {
      const stat = await readFile(`/proc/${name}/stat`, 'utf8').catch(() => '');
      // A zombie is already dead; it only waits for its parent to reap it.
      if (!/^\d+ \(.*\) Z /.test(stat)) found.push(Number(name));
    }
  }
  return found;
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * A suite whose test forks helpers that ignore SIGTERM, one of them detached from its parent's
 * lifetime, and never finishes; the project's time limit is `timeoutMs`. Returns the helpers'
 * pids, those still alive after suture exited, and any process left with a cwd in the repository.
 */
export async function runRunawayScenario({ timeoutMs = 3000 } = {}) {
  const root = await tempRepoDir('runaway-');
  const pidsFile = join(root, 'pids.txt');
  await put(
    root,
    'suture.config.json',
    JSON.stringify({
      projects: [{ name: 'hang', root: 'hang', runner: './runner.mjs', timeoutMs }],
      fixers: [],
      reporters: ['json'],
      heal: { flakyReruns: 0 },
      // process groups alone, as where namespaces are refused: the pids the helpers write are ours
      workspace: 'in-place',
      sandbox: 'off',
    }),
  );
  await put(root, 'runner.mjs', "export { scriptRunner as default } from '@suture/core/testing';\n");
  await put(
    root,
    'hang/tests/hang.test.mjs',
    `import { spawn } from 'node:child_process';
import { appendFileSync } from 'node:fs';
process.on('SIGTERM', () => {});
const helper = "process.on('SIGTERM', () => {}); require('fs').appendFileSync(process.argv[1], process.pid + '\\\\n'); setInterval(() => {}, 1000);";
// one helper whose parent exits (it is re-parented, still in the group), one that stays a child
const middle = spawn(process.execPath, ['-e', "const { spawn } = require('child_process'); spawn(process.execPath, ['-e', process.argv[1], process.argv[2]], { stdio: 'ignore' }).unref();", helper, ${JSON.stringify(pidsFile)}], { stdio: 'ignore' });
middle.on('exit', () => {});
spawn(process.execPath, ['-e', helper, ${JSON.stringify(pidsFile)}], { stdio: 'ignore' });
appendFileSync(${JSON.stringify(pidsFile)}, process.pid + '\\n');
setInterval(() => {}, 1000);
`,
  );
  const started = Date.now();
  const run = await runSuture(['run', '--json'], root);
  const tookMs = Date.now() - started;
  const pids = (await readFile(pidsFile, 'utf8').catch(() => '')).split('\n').filter(Boolean).map(Number);
  // SIGKILL is delivered at once, but give the kernel a moment to finish tearing the group down.
  let left = pids.filter(alive);
  for (let i = 0; i < 20 && left.length > 0; i++) {
    await sleep(100);
    left = pids.filter(alive);
  }
  const leftover = await processesIn(root);
  let report;
  try {
    report = JSON.parse(run.stdout);
  } catch {
    report = undefined;
  }
  const test = report?.projects[0]?.rounds[0]?.tests?.[0];
  await removeDir(root);
  return {
    exitCode: run.code,
    stderr: run.stderr,
    pids,
    alive: left,
    leftover,
    testStatus: test?.status,
    roundStatus: report?.projects[0]?.rounds[0]?.status,
    tookMs,
  };
}

/**
 * A test that prints `bytes` of output and then a marker line before failing. suture runs through
 * a wrapper that reports its own peak RSS; the test process is not counted.
 */
export async function runBigOutputScenario({ bytes, runner = 'script' }) {
  const root = await tempRepoDir('big-output-');
  const marker = `LAST-LINE-${Date.now()}`;
  const project =
    runner === 'pytest'
      ? { name: 'big', root: 'big', runner: 'pytest' }
      : { name: 'big', root: 'big', runner: './runner.mjs' };
  await put(
    root,
    'suture.config.json',
    JSON.stringify({ projects: [project], fixers: [], reporters: ['json'], heal: { flakyReruns: 0 } }),
  );
  await put(root, 'runner.mjs', "export { scriptRunner as default } from '@suture/core/testing';\n");
  if (runner === 'pytest') {
    await put(
      root,
      'big/test_big.py',
      `import sys\n\n\ndef test_big():\n    line = "x" * 1023 + "\\n"\n    for _ in range(${Math.ceil(bytes / 1024)}):\n        sys.stdout.write(line)\n    print("${marker}")\n    assert False, "${marker}"\n`,
    );
  } else {
    await put(
      root,
      'big/tests/big.test.mjs',
      `const line = Buffer.from('x'.repeat(1023) + '\\n');
const chunk = Buffer.concat(Array.from({ length: 64 }, () => line));
let left = ${bytes};
const write = () => {
  while (left > 0) {
    left -= chunk.length;
    if (!process.stdout.write(chunk)) return process.stdout.once('drain', write);
  }
  process.stdout.write('${marker}\\n', () => { throw new Error('${marker}'); });
};
write();
`,
    );
  }
  const rssFile = join(root, 'rss.txt');
  const started = Date.now();
  const run = await runSuture(['run', '--json'], root, { measureRss: rssFile });
  const tookMs = Date.now() - started;
  const peakRssKb = Number(await readFile(rssFile, 'utf8').catch(() => 'NaN'));
  let report;
  try {
    report = JSON.parse(run.stdout);
  } catch {
    report = undefined;
  }
  const failure = report?.projects[0]?.failures[0];
  const test = report?.projects[0]?.rounds[0]?.tests?.[0];
  const tailKept = Boolean(
    failure && `${failure.failure.evidence}\n${test?.message ?? ''}\n${test?.trace ?? ''}`.includes(marker),
  );
  await removeDir(root);
  return {
    bytes,
    runner,
    exitCode: run.code,
    peakRssKb,
    peakRssMb: peakRssKb / 1024,
    tailKept,
    tookMs,
    stderr: run.stderr.slice(-2000),
  };
}

/**
 * SIGKILLs `suture run` while its test (which ignores SIGTERM and would run for a minute) is
 * running, then runs `suture recover`. Returns whether the test outlived suture and whether it
 * was still alive after recover.
 */
export async function runKilledDuringTestScenario() {
  const root = await tempRepoDir('killed-test-');
  const pidFile = join(root, 'test.pid');
  await putInPlaceConfig(root, { name: 'slow', root: 'slow', runner: './runner.mjs' });
  await put(root, 'runner.mjs', "export { scriptRunner as default } from '@suture/core/testing';\n");
  await put(
    root,
    'slow/tests/slow.test.mjs',
    `import { writeFileSync } from 'node:fs';\nprocess.on('SIGTERM', () => {});\nwriteFileSync(${JSON.stringify(pidFile)}, String(process.pid));\nsetTimeout(() => process.exit(1), 60_000);\n`,
  );
  const child = spawnSuture(['run'], root);
  child.stdout.resume();
  child.stderr.resume();
  const exited = new Promise((r) => child.on('exit', r));
  let pid;
  for (let i = 0; i < 400 && !pid; i++) {
    pid = Number(await readFile(pidFile, 'utf8').catch(() => '')) || undefined;
    if (!pid) await sleep(50);
  }
  child.kill('SIGKILL');
  await exited;
  const outlived = pid !== undefined && alive(pid);
  const recovered = await runSuture(['recover'], root);
  let stillAlive = pid !== undefined && alive(pid);
  for (let i = 0; i < 20 && stillAlive; i++) {
    await sleep(100);
    stillAlive = alive(pid);
  }
  if (stillAlive) process.kill(pid, 'SIGKILL');
  const leftover = await processesIn(root);
  await removeDir(root);
  return {
    pid,
    outlived,
    stillAlive,
    leftover,
    recoverCode: recovered.code,
    recoverOut: recovered.stdout + recovered.stderr,
  };
}

/**
 * A real CMake + Ninja build whose compile jobs are slow (a compiler launcher that records its pid,
 * ignores SIGTERM and waits before compiling): suture is SIGKILLed while two jobs run, then
 * `suture recover` runs. Returns the jobs' pids, whether they outlived suture, which are alive
 * after recover, and any process left with a cwd in the repository.
 */
export async function runKilledDuringBuildScenario() {
  const root = await tempRepoDir('killed-build-');
  const pids = join(root, 'pids');
  await mkdir(pids);
  await putInPlaceConfig(root, { name: 'cpp', root: 'cpp', runner: 'ctest' });
  await put(
    root,
    'cpp/slow-cc.sh',
    `#!/bin/sh\ntrap '' TERM\necho $$ > ${JSON.stringify(pids)}/$$\nsleep 60\nexec "$@"\n`,
  );
  const units = ['a', 'b', 'c', 'd'];
  await put(
    root,
    'cpp/CMakeLists.txt',
    [
      'cmake_minimum_required(VERSION 3.16)',
      'project(slow CXX)',
      `set(CMAKE_CXX_COMPILER_LAUNCHER \${CMAKE_CURRENT_SOURCE_DIR}/slow-cc.sh)`,
      'enable_testing()',
      `add_executable(t main.cpp ${units.map((u) => `${u}.cpp`).join(' ')})`,
      'add_test(NAME t COMMAND t)',
      '',
    ].join('\n'),
  );
  for (const u of units) await put(root, `cpp/${u}.cpp`, `int ${u}() { return 0; }\n`);
  await put(
    root,
    'cpp/main.cpp',
    `${units.map((u) => `int ${u}();`).join(' ')}\nint main() { return a() + b() + c() + d(); }\n`,
  );
  await chmod(join(root, 'cpp/slow-cc.sh'), 0o755);
  const child = spawnSuture(['run'], root);
  child.stdout.resume();
  child.stderr.resume();
  const exited = new Promise((r) => child.on('exit', r));
  // the configure step compiles nothing through the launcher; the build starts two jobs at once
  let jobs = [];
  for (let i = 0; i < 1200 && jobs.length < 2; i++) {
    jobs = (await readdir(pids)).map(Number);
    if (jobs.length < 2) await sleep(50);
  }
  child.kill('SIGKILL');
  await exited;
  const outlived = jobs.filter(alive);
  const recovered = await runSuture(['recover'], root);
  let still = jobs.filter(alive);
  for (let i = 0; i < 20 && still.length > 0; i++) {
    await sleep(100);
    still = jobs.filter(alive);
  }
  for (const pid of still) process.kill(pid, 'SIGKILL');
  const leftover = await processesIn(root);
  for (const pid of leftover) process.kill(pid, 'SIGKILL');
  await removeDir(root);
  return {
    jobs,
    outlived,
    stillAlive: still,
    leftover,
    recoverCode: recovered.code,
    recoverOut: recovered.stdout + recovered.stderr,
  };
}
