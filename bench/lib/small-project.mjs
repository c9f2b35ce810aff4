// What the benchmarks on a small project made in a temporary folder share: this repository's
// paths, running a command with CI's environment and timing it, writing the project's files, the
// latest run's report, and medians.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = resolve(fileURLToPath(new URL('../..', import.meta.url)));
export const SUTURE = join(REPO, 'packages/cli/dist/bin.js');
export const JEST = join(REPO, 'node_modules/jest/bin/jest.js');
export const VITEST = join(REPO, 'node_modules/vitest/vitest.mjs');

/** `--repeats N` taken out of `args` (default `fallback`). */
export function repeatsArg(args, fallback) {
  const at = args.indexOf('--repeats');
  return at >= 0 ? Number(args.splice(at, 2)[1]) : fallback;
}

export const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
export const ms = (n) => (n === undefined ? '-' : `${Math.round(n)} ms`);

export function run(cmd, argv, cwd, env = {}) {
  const r = spawnSync(cmd, argv, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, CI: '1', NO_COLOR: '1', ...env },
  });
  if (r.error) throw new Error(`${cmd} cannot run: ${r.error.message}`);
  return r;
}

export function timed(cmd, argv, cwd, env = {}) {
  const t = performance.now();
  const r = run(cmd, argv, cwd, env);
  return { ms: performance.now() - t, status: r.status, output: `${r.stdout}${r.stderr}` };
}

export function write(dir, files) {
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(join(dir, file), text);
  }
}

/** The report.json of the latest run under `root`'s `.suture/runs`. */
export function latestReport(root) {
  const runs = join(root, '.suture/runs');
  const last = readdirSync(runs).sort().pop();
  return JSON.parse(readFileSync(join(runs, last, 'report.json'), 'utf8'));
}
