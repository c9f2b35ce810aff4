#!/usr/bin/env node
// suture's Vitest runner (@suture/runner-vitest) on real open-source projects at pinned commits,
// each with its own Vitest from npm, against `vitest run` run natively. Prints, per project: the
// tests counted from `vitest run --reporter=json` and from suture's report (they must be equal),
// the median warm wall time of `suture run --no-heal` against `vitest run` (goal: at most 1.1x on
// suites over 5 s) and a targeted re-run of one test through the runner against its full run.
// Prints figures; it is not a test.
//
//   node bench/vitest-projects.mjs [name...] [--repeats N]
//
// The projects are read from local git mirrors (SUTURE_BENCH_MIRRORS, default /work/.mirror, laid
// out as <owner>+<repo>/repo) or cloned from GitHub, materialised in a temporary folder outside
// this repository (SUTURE_BENCH_KEEP=1 keeps it) and installed there with `npm install` (their
// lockfiles are pnpm's, so npm resolves their package.json ranges). Nothing of theirs is committed
// here.
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { benchArgs, run } from './lib/real-project.mjs';
import { benchProjects } from './lib/real-project-suite.mjs';

const { repeats, only } = benchArgs();
const VITEST = join('node_modules', '.bin', 'vitest');

function vitestCounts(dir) {
  const out = join(dir, '.bench-vitest.json');
  run(VITEST, ['run', '--reporter=json', `--outputFile=${out}`], dir, {}, true);
  const j = JSON.parse(readFileSync(out, 'utf8'));
  rmSync(out);
  return {
    tests: j.numTotalTests,
    passed: j.numPassedTests,
    failed: j.numFailedTests,
    skipped: j.numPendingTests + j.numTodoTests,
  };
}

const install =
  (...extra) =>
  (dir) =>
    run(
      'npm',
      ['install', '--no-audit', '--no-fund', '--ignore-scripts', '--engine-strict=false', ...extra],
      dir,
    );

// by package name, which every build of suture resolves: before the short name `vitest` was in
// core's aliases, the name resolved to the project's own `vitest` package, which suture then failed
// to load as a plugin ("Vitest failed to access its internal state")
const RUNNER = '@suture/runner-vitest';

const vitestNative = { warm: [[VITEST, 'run']], counts: vitestCounts };

const PROJECTS = [
  {
    // Vitest 3
    name: 'pathe',
    repo: 'unjs/pathe',
    commit: '2a558aee716f6820a199cdf5b075ef4aafb69399',
    runner: [RUNNER, {}],
    setup: install(),
    native: vitestNative,
  },
  {
    // Vitest 4.0
    name: 'ufo',
    repo: 'unjs/ufo',
    commit: '11308c0bb5cb4a4bc3bfcbdc5c03177b097423e6',
    runner: [RUNNER, {}],
    setup: install(),
    native: vitestNative,
  },
  {
    // Vitest 4.1
    name: 'defu',
    repo: 'unjs/defu',
    commit: '80c0146afb11ebd86183a579ec469f3abd976695',
    runner: [RUNNER, {}],
    // unbuild 3.6 asks for TypeScript 5 as an optional peer and defu's own TypeScript is 6: pnpm,
    // which the project uses, lets it pass; npm refuses the tree unless told to leave peers alone
    setup: install('--legacy-peer-deps'),
    native: vitestNative,
  },
];

await benchProjects({
  title: 'Vitest projects under @suture/runner-vitest',
  projects: PROJECTS,
  repeats,
  only,
  exclude: ['coverage/', 'dist/'],
});
