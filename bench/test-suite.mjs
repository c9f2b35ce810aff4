#!/usr/bin/env node
// The wall time of suture's own test suite on a fresh clone, as CI runs it: HEAD (or --at COMMIT)
// cloned into a temporary folder outside the repository with `../shared` beside it, then
// `bash .ci/run` (install, lint, build, typecheck, test). Prints the total wall time, the time to
// the first test, each project's test duration from vitest's summary (longest first) and its test
// files over 30 s, and the load average before and after. Prints figures; it is not a test.
//   node bench/test-suite.mjs [--at COMMIT] [--keep]
import { spawn, execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = resolve(fileURLToPath(new URL('..', import.meta.url)));
const args = process.argv.slice(2);
const atIndex = args.indexOf('--at');
const at = atIndex >= 0 ? args[atIndex + 1] : 'HEAD';
const keep = args.includes('--keep');

const base = mkdtempSync(join(tmpdir(), 'suture-suite-'));
const clone = join(base, 'main');
execFileSync('git', ['clone', '-q', REPO, clone]);
execFileSync('git', ['-C', clone, 'checkout', '-q', at]);
const shared = resolve(REPO, '..', 'shared');
if (existsSync(shared)) symlinkSync(shared, join(base, 'shared'));
const commit = execFileSync('git', ['-C', clone, 'rev-parse', '--short', 'HEAD'], {
  encoding: 'utf8',
}).trim();

const strip = (s) => s.replace(/\x1b\[[0-9;]*m/g, '');
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
const loadBefore = load();
const started = Date.now();
let firstTestAt;
let log = '';
const code = await new Promise((done) => {
  const child = spawn('bash', ['.ci/run'], { cwd: clone, stdio: ['ignore', 'pipe', 'pipe'] });
  const take = (chunk) => {
    const text = chunk.toString();
    log += text;
    if (firstTestAt === undefined && / RUN {2}v\d/.test(strip(text))) firstTestAt = Date.now();
  };
  child.stdout.on('data', take);
  child.stderr.on('data', take);
  child.on('close', (c) => done(c ?? 1));
});
const wallS = (Date.now() - started) / 1000;
const lines = strip(log).split('\n');

/** `@suture/core:    Duration  237.39s (...)` per project. */
const durations = [];
for (const line of lines) {
  const m = /^(\S+):\s+Duration\s+([\d.]+)(m?s)/.exec(line);
  if (m) durations.push({ project: m[1], s: Number(m[2]) / (m[3] === 'ms' ? 1000 : 1) });
}
/** `@suture/cli:  ✓ test/e2e/install/install.test.ts (7 tests) 98346ms` over 30 s. */
const slow = [];
for (const line of lines) {
  const m = /^(\S+):\s+[✓×❯↓] (\S+\.test\.ts) \(.*\) (\d+)ms$/.exec(line.trim());
  if (m && Number(m[3]) > 30_000) slow.push({ project: m[1], file: m[2], s: Number(m[3]) / 1000 });
}
durations.sort((a, b) => b.s - a.s);
slow.sort((a, b) => b.s - a.s);

console.log(`suture's test suite on a fresh clone of ${commit} (bash .ci/run)`);
console.log(`  exit code       ${code}`);
console.log(`  wall time       ${(wallS / 60).toFixed(1)} min (${wallS.toFixed(0)} s)`);
if (firstTestAt)
  console.log(`  to first test   ${((firstTestAt - started) / 1000).toFixed(0)} s (install, lint, builds)`);
console.log(`  load average    ${loadBefore} before, ${load()} after`);
console.log(
  `  test time per project (vitest Duration), ${durations.reduce((n, d) => n + d.s, 0).toFixed(0)} s in all:`,
);
for (const d of durations) console.log(`    ${d.project.padEnd(30)} ${d.s.toFixed(1).padStart(7)} s`);
if (slow.length > 0) {
  console.log('  test files over 30 s:');
  for (const f of slow) console.log(`    ${f.s.toFixed(1).padStart(7)} s  ${f.project} ${f.file}`);
}
if (code !== 0) {
  const file = join(tmpdir(), `suture-suite-${commit}.log`);
  writeFileSync(file, log);
  console.log(`  the run failed; its whole output is in ${file}`);
}
if (keep) console.log(`  the clone is kept at ${clone}`);
else rmSync(base, { recursive: true, force: true });
