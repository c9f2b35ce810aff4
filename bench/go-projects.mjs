#!/usr/bin/env node
// suture's Go runner (@suture/runner-go) on real open-source Go modules at pinned commits, against
// `go test` run natively. Prints, per module: the tests and subtests counted from `go test -json
// ./...` and from suture's report (they must be equal), the median warm wall time of `suture run
// --no-heal` against `go test -count=1 ./...` (goal: at most 1.1x on suites over 5 s), a targeted
// re-run of one test through the runner against its full run, and the heal of a one-line bug in
// the module's code by an oracle fixer that proposes the original file. Prints figures; it is not
// a test.
//
//   node bench/go-projects.mjs [name...] [--repeats N]
//
// The modules are read from local git mirrors (SUTURE_BENCH_MIRRORS, default /work/.mirror, laid
// out as <owner>+<repo>/repo) or cloned from GitHub, materialised in a temporary folder outside
// this repository (SUTURE_BENCH_KEEP=1 keeps it); their dependencies come from the Go module
// proxy. Nothing of theirs is committed here.
import { benchArgs, run } from './lib/real-project.mjs';
import { benchProjects } from './lib/real-project-suite.mjs';

const { repeats, only } = benchArgs();

/**
 * Tests and subtests of `go test -json ./...`, each counted once by its last pass, fail or skip
 * (a package's own result carries no test name and is not counted).
 */
function goCounts(dir) {
  const out = run('go', ['test', '-json', '-count=1', './...'], dir, {}, true).stdout;
  const last = new Map();
  for (const line of out.split('\n')) {
    if (!line.startsWith('{')) continue;
    const e = JSON.parse(line);
    if (e.Test && (e.Action === 'pass' || e.Action === 'fail' || e.Action === 'skip'))
      last.set(`${e.Package} ${e.Test}`, e.Action);
  }
  const n = (action) => [...last.values()].filter((a) => a === action).length;
  return { tests: last.size, passed: n('pass'), failed: n('fail'), skipped: n('skip') };
}

// The heal is also run with the build cache not shared (the sandbox's own, empty at first): what the
// shared cache saves a heal. A suture whose sandbox gave the shared cache read-only failed the
// default heal: `go test` failed the build of a package it had to compile anew ("open
// $GOCACHE/...: read-only file system"), a round with no test result and no diagnostic.
const NO_SHARED_CACHE = ['shareBuildCache: false', { shareBuildCache: false }];

const goNative = { warm: [['go', 'test', '-count=1', './...']], counts: goCounts };

const PROJECTS = [
  {
    name: 'google-uuid',
    repo: 'google/uuid',
    commit: '2d3c2a9cc518326daf99a383f07c4d3c44317e4d',
    runner: ['go', {}],
    native: goNative,
    bug: {
      file: 'uuid.go',
      search: 'return Version(uuid[6] >> 4)',
      replace: 'return Version(uuid[6] >> 3)',
      alsoWith: [NO_SHARED_CACHE],
    },
  },
  {
    // its scheduler's tests wait on the wall clock: a suite of about 40 s that is mostly sleeping
    name: 'robfig-cron',
    repo: 'robfig/cron',
    commit: 'bc59245fe10efaed9d51b56900192527ed733435',
    runner: ['go', {}],
    native: goNative,
    bug: {
      file: 'parser.go',
      search: 'if start > end {',
      replace: 'if start >= end {',
      alsoWith: [NO_SHARED_CACHE],
    },
  },
];

await benchProjects({ title: 'Go modules under @suture/runner-go', projects: PROJECTS, repeats, only });
