#!/usr/bin/env node
// How fast Ctrl-C stops `suture run --fix` with the default isolation: SIGINT at random moments
// of a run whose heal is validated in the workspace (initial run, the fixer, a validation run that
// holds 5 s and leaves a setsid'd and a daemonised helper, the regression run, the landing), and
// of a run whose fixer proposes many new files (the limits raised to let it through). Prints the
// time from the signal to suture's exit (goal: at most 1 s), and for each trial checks exit 130
// (or the run's own code when it ended first), the tree at its start or healed, no lock, no
// journal and no helper left. Prints figures; it is not a test.
//   node bench/interrupt.mjs [trials=20] [files=2000]
import { execFileSync } from 'node:child_process';
import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { removeDir, spawnSuture, tempRepoDir } from '../packages/cli/test/harness/cli.mjs';
import {
  FIXED,
  MATH,
  lingeringPatch,
  processesWith,
  writeWorkspaceFixture,
} from '../packages/cli/test/harness/workspace.mjs';

const TRIALS = Number(process.argv[2] ?? 20);
const FILES = Number(process.argv[3] ?? 2000);
const exists = (p) =>
  stat(p).then(
    () => true,
    () => false,
  );
const quantile = (xs, q) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))];

/** A fixer that fixes add and adds `files` new modules beside it. */
const manyFilesFixer = (files) => `export default function fixer() {
  return {
    name: 'many-files',
    apiVersion: 1,
    async propose() {
      const edits = [{ file: 'src/math.mjs', content: ${JSON.stringify(FIXED)} }];
      for (let i = 0; i < ${files}; i++) edits.push({ file: \`src/gen/m\${i}.mjs\`, content: \`export const v\${i} = \${i};\\n\` });
      return { verdict: 'edits', rationale: 'add must add', edits };
    },
  };
}
`;

async function fixture(kind, marker) {
  const dir = await tempRepoDir(`interrupt-${kind}-`);
  if (kind === 'slow') {
    const patch = lingeringPatch(marker, 5000);
    await writeWorkspaceFixture(dir, { patch });
    return { dir, healed: patch };
  }
  const heal = { flakyReruns: 0, maxAttempts: 1, allowNewFiles: true, maxFilesPerAttempt: FILES + 10 };
  await writeWorkspaceFixture(dir, { config: { heal } });
  await writeFile(join(dir, 'plugins/fixer.mjs'), manyFilesFixer(FILES));
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-qam', 'fixer'], {
    cwd: dir,
    stdio: 'ignore',
  });
  return { dir, healed: FIXED };
}

/** One `suture run --fix`; SIGINT after `delayMs` (never when undefined). */
async function trial(kind, delayMs) {
  const marker = `suture-interrupt-${process.pid}-${Date.now()}`;
  const { dir, healed } = await fixture(kind, marker);
  const started = performance.now();
  const child = spawnSuture(['run', '--fix'], dir);
  let stderr = '';
  child.stderr.on('data', (c) => (stderr += c));
  child.stdout.resume();
  const exited = new Promise((r) => child.on('exit', (code) => r({ code, at: performance.now() })));
  let signalled;
  const timer =
    delayMs === undefined
      ? undefined
      : setTimeout(() => {
          signalled = performance.now();
          child.kill('SIGINT');
        }, delayMs);
  const { code, at } = await exited;
  clearTimeout(timer);
  const problems = [];
  const math = await readFile(join(dir, 'calc/src/math.mjs'), 'utf8');
  if (math !== MATH && math !== healed) problems.push('math.mjs is neither as it was nor healed');
  if (await exists(join(dir, '.suture/lock'))) problems.push('lock left');
  if (await exists(join(dir, '.suture/journal'))) problems.push('journal left');
  if (kind === 'slow' && (await processesWith(marker)).length > 0) problems.push('helpers left running');
  const interrupted = signalled !== undefined && signalled < at;
  if (interrupted && code !== 130) problems.push(`exit ${code} after SIGINT, not 130`);
  if (interrupted && !/SIGINT/.test(stderr)) problems.push('no word of the SIGINT on stderr');
  await removeDir(dir);
  return { code, runMs: at - started, latencyMs: interrupted ? at - signalled : undefined, problems };
}

let failed = 0;
for (const kind of ['slow', 'many-files']) {
  const full = await trial(kind, undefined);
  if (full.problems.length > 0) failed++;
  console.log(
    `\n${kind === 'slow' ? 'a heal validated for 5 s, helpers lingering' : `a proposal of ${FILES + 1} files`}: uninterrupted run ${(full.runMs / 1000).toFixed(1)} s, exit ${full.code}${full.problems.length ? `; ${full.problems.join('; ')}` : ''}`,
  );
  const latencies = [];
  for (let i = 0; i < TRIALS; i++) {
    const delay = Math.round(200 + Math.random() * full.runMs * 0.95);
    const r = await trial(kind, delay);
    if (r.latencyMs !== undefined) latencies.push(r.latencyMs);
    if (r.problems.length > 0) {
      failed++;
      console.log(`  trial ${i} (SIGINT at ${delay} ms) FAILED: ${r.problems.join('; ')}`);
    }
  }
  if (latencies.length === 0) console.log('  no trial was interrupted before it ended');
  else
    console.log(
      `  ${latencies.length} of ${TRIALS} interrupted: SIGINT to exit median ${quantile(latencies, 0.5).toFixed(0)} ms, p90 ${quantile(latencies, 0.9).toFixed(0)} ms, max ${Math.max(...latencies).toFixed(0)} ms; over 1 s: ${latencies.filter((l) => l > 1000).length}`,
    );
}
console.log(`\ntrials with a problem (must be 0): ${failed}`);
