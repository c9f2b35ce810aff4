#!/usr/bin/env node
// `nx affected -t suture` after a one-file change against gating everything, on a generated
// polyglot Nx workspace (pytest projects in chains of five that import each other, Jest packages),
// with @suture/nx from this repository and Nx's local cache. Prints figures; it is not a test.
//   node bench/nx-affected.mjs [projects=50]
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PROJECTS = Number(process.argv[2] ?? 50);
const REPO = fileURLToPath(new URL('..', import.meta.url));
const NX = join(REPO, 'node_modules/nx/dist/bin/nx.js');
const SUTURE = join(REPO, 'packages/cli/dist/bin.js');
const PYTHON = execFileSync('python3', ['-c', 'import sys; print(sys.executable)'], {
  encoding: 'utf8',
}).trim();
const CHAIN = 5;

const dir = await mkdtemp(join(tmpdir(), 'suture-bench-nx-'));
const write = async (path, text) => {
  await mkdir(join(dir, path, '..'), { recursive: true });
  await writeFile(join(dir, path), text);
};
const py = Math.ceil(PROJECTS * 0.6);
const projects = [];
for (let i = 0; i < py; i++) {
  const name = `py${i}`;
  const prev = i % CHAIN === 0 ? undefined : `py${i - 1}`;
  await write(`py/${name}/project.json`, JSON.stringify({ name }));
  await write(
    `py/${name}/mod${i}.py`,
    `${prev ? `from mod${i - 1} import value${i - 1}\n` : ''}\n\ndef value${i}():\n    return ${prev ? `value${i - 1}() + 1` : '1'}\n`,
  );
  const tests = Array.from(
    { length: 20 },
    (_, k) => `def test_value_${k}():\n    assert value${i}() + ${k} == ${(i % CHAIN) + 1 + k}\n`,
  ).join('\n\n');
  await write(`py/${name}/test_mod${i}.py`, `from mod${i} import value${i}\n\n\n${tests}`);
  const chainStart = i - (i % CHAIN);
  const path = Array.from({ length: i - chainStart }, (_, k) => `../py${chainStart + k}`).join(':');
  projects.push({
    name,
    root: `py/${name}`,
    runner: ['pytest', { python: PYTHON, ...(path ? { env: { PYTHONPATH: path } } : {}) }],
  });
}
for (let i = 0; i < PROJECTS - py; i++) {
  const name = `js${i}`;
  await write(`js/${name}/project.json`, JSON.stringify({ name }));
  await write(`js/${name}/package.json`, JSON.stringify({ name, private: true }));
  await write(`js/${name}/src/value.js`, `module.exports = (x) => x + ${i};\n`);
  const tests = Array.from(
    { length: 20 },
    (_, k) => `test('adds ${k}', () => {\n  expect(value(${k})).toBe(${k + i});\n});\n`,
  ).join('\n');
  await write(`js/${name}/__tests__/value.test.js`, `const value = require('../src/value');\n\n${tests}`);
  projects.push({ name, root: `js/${name}`, runner: 'jest' });
}
await symlink(join(REPO, 'node_modules'), join(dir, 'node_modules'), 'dir');
await write('package.json', JSON.stringify({ name: 'bench-nx', private: true }));
await write(
  'nx.json',
  JSON.stringify({ plugins: ['@suture/nx'], namedInputs: { default: ['{projectRoot}/**/*'] } }),
);
await write('.gitignore', 'node_modules\n.nx\n.suture\n__pycache__\n');
await write('suture.config.json', JSON.stringify({ projects, fixers: [], concurrency: 2 }, null, 2));
const git = (...args) =>
  execFileSync('git', ['-c', 'user.name=b', '-c', 'user.email=b@b', ...args], { cwd: dir });
git('init', '-q', '-b', 'main');
git('add', '.');
git('commit', '-qm', 'init');

const env = { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true', NX_TUI: 'false', CI: '1' };
function timed(label, command, args) {
  const start = process.hrtime.bigint();
  const r = spawnSync(command, args, { cwd: dir, env, encoding: 'utf8', maxBuffer: 1 << 28 });
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  // Nx colours its lines even in CI; a replayed task's line ends in [local cache]
  const out = `${r.stdout}${r.stderr}`.replace(/\x1b\[[0-9;]*m/g, '');
  const ran = new Set(out.match(/^> nx run \S+:suture[ \t]*$/gm) ?? []).size;
  const cached =
    /read the output from the cache instead of running the command for (\d+) out of (\d+) tasks/.exec(out);
  if (r.status !== 0) {
    console.error(out.slice(-3000));
    throw new Error(`${label}: exit ${r.status}`);
  }
  return { label, seconds, ran, cached: cached ? Number(cached[1]) : 0 };
}
const merged = async () => JSON.parse(await readFile(join(dir, '.suture/nx-merged/report.json'), 'utf8'));

try {
  const rows = [];
  rows.push(
    timed('suture run (one process, every project)', process.execPath, [SUTURE, 'run', '--reporter', 'json']),
  );
  rows.push(
    timed('nx run-many -t suture (cold, every project)', process.execPath, [
      NX,
      'run-many',
      '-t',
      'suture',
      '--outputStyle=static',
    ]),
  );
  const all = await merged();
  rows.push(
    timed('nx run-many -t suture (all from the cache)', process.execPath, [
      NX,
      'run-many',
      '-t',
      'suture',
      '--outputStyle=static',
    ]),
  );
  // a one-file change at the head of a Python chain: that project and the four that import it
  await write('py/py0/mod0.py', `${await readFile(join(dir, 'py/py0/mod0.py'), 'utf8')}\n# touched\n`);
  const affected = execFileSync(
    process.execPath,
    [NX, 'show', 'projects', '--affected', '--base=HEAD', '-t', 'suture'],
    {
      cwd: dir,
      env,
      encoding: 'utf8',
    },
  )
    .trim()
    .split('\n');
  rows.push(
    timed('nx affected -t suture (one file changed)', process.execPath, [
      NX,
      'affected',
      '-t',
      'suture',
      '--base=HEAD',
      '--outputStyle=static',
    ]),
  );
  const one = await merged();
  console.log(
    `nx-affected: ${PROJECTS} projects (${py} pytest in chains of ${CHAIN}, ${PROJECTS - py} Jest), ${all.totals.tests} tests; ${machine()}`,
  );
  for (const r of rows)
    console.log(
      `  ${r.label.padEnd(46)} ${r.seconds.toFixed(1).padStart(7)} s${r.label.startsWith('nx') ? `  tasks run ${r.ran}, from cache ${r.cached}` : ''}`,
    );
  console.log(`  affected after the change: ${affected.length} project(s) (${affected.sort().join(', ')})`);
  console.log(
    `  merged report after nx affected: ${one.projects.length} project(s), ${one.totals.tests} tests, exit ${one.exitCode}; after run-many: ${all.projects.length} project(s), ${all.totals.tests} tests`,
  );
  const cold = rows[1].seconds;
  console.log(`  nx affected vs gating everything under nx: ${(cold / rows[3].seconds).toFixed(1)}x faster`);
} finally {
  await rm(dir, { recursive: true, force: true });
}

function machine() {
  return `node ${process.version}, ${cpus()} cpu(s)`;
}
function cpus() {
  return spawnSync('nproc', { encoding: 'utf8' }).stdout.trim();
}
