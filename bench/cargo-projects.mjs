#!/usr/bin/env node
// suture's cargo runner (@suture/runner-cargo) on real open-source Rust crates at pinned commits,
// against `cargo test` run natively. Prints, per crate: the tests counted from libtest's summary
// lines (`test result: ok. 88 passed; 0 failed; 0 ignored; ...`, unit, integration and doctests)
// and from suture's report (they must be equal), the median warm wall time of `suture run
// --no-heal` against `cargo test` (goal: at most 1.1x on suites over 5 s), a targeted re-run of
// one test through the runner against its full run, and the heal of a one-line bug in the crate's
// code by an oracle fixer that proposes the original file. Prints figures; it is not a test.
//
//   node bench/cargo-projects.mjs [name...] [--repeats N]
//
// The crates are read from local git mirrors (SUTURE_BENCH_MIRRORS, default /work/.mirror, laid
// out as <owner>+<repo>/repo) or cloned from GitHub, materialised in a temporary folder outside
// this repository (SUTURE_BENCH_KEEP=1 keeps it); their dependencies come from crates.io. The
// first `cargo test` of each builds it cold (semver's dev-dependency criterion takes a few
// minutes on two cores). Nothing of theirs is committed here.
import { benchArgs, run } from './lib/real-project.mjs';
import { benchProjects } from './lib/real-project-suite.mjs';

const { repeats, only } = benchArgs();

/** The sums of libtest's `test result:` lines, ignored tests counted as skipped. */
function cargoCounts(dir) {
  const out = run('cargo', ['test'], dir, {}, true).stdout;
  const c = { tests: 0, passed: 0, failed: 0, skipped: 0 };
  for (const m of out.matchAll(/^test result: \w+\. (\d+) passed; (\d+) failed; (\d+) ignored;/gm)) {
    c.passed += Number(m[1]);
    c.failed += Number(m[2]);
    c.skipped += Number(m[3]);
  }
  c.tests = c.passed + c.failed + c.skipped;
  return c;
}

const cargoNative = { warm: [['cargo', 'test']], counts: cargoCounts };

const PROJECTS = [
  {
    name: 'strsim-rs',
    repo: 'rapidfuzz/strsim-rs',
    commit: '43d44436d598e7d4de576e69b5c0c488026e2777',
    runner: ['cargo', {}],
    native: cargoNative,
    bug: { file: 'src/lib.rs', search: 'count += 1;', replace: 'count += 2;' },
  },
  {
    name: 'semver',
    repo: 'dtolnay/semver',
    commit: '8591f2344b52b31d85b538de58b76a676fe9ff90',
    runner: ['cargo', {}],
    native: cargoNative,
    bug: { file: 'src/eval.rs', search: 'ver.pre == cmp.pre', replace: 'ver.pre != cmp.pre' },
  },
];

await benchProjects({
  title: 'Rust crates under @suture/runner-cargo',
  projects: PROJECTS,
  repeats,
  only,
  exclude: ['target/', 'target-suture/'],
});
