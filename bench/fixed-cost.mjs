#!/usr/bin/env node
// The fixed cost of a green gate per runner: on a project of one passing test, the warm wall time
// of `suture run --no-heal` (the default config: isolation, reporters) against the runner's own
// command, and what of it the gate spent outside its runner's round (Node's start, loading the
// engine and plugins, opening the workspace, the reports). Goal: at most 150 ms over native.
// The projects are made in a temporary folder outside the repository, whose node_modules points
// at this repository's (plugins, Jest, Vitest). Prints figures; it is not a test.
//   node bench/fixed-cost.mjs [runner...] [--repeats N]
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import {
  JEST,
  latestReport,
  median,
  ms,
  REPO,
  repeatsArg,
  run,
  SUTURE,
  timed,
  VITEST,
  write,
} from './lib/small-project.mjs';

const args = process.argv.slice(2);
const REPEATS = repeatsArg(args, 7);
const GOAL_MS = 150;

/** One project per runner: its files, the runner entry of the config, the native command. */
const PROJECTS = {
  pytest: {
    files: { 'tests/test_one.py': 'def test_one():\n    assert 1 + 1 == 2\n' },
    runner: 'pytest',
    native: ['python3', ['-m', 'pytest', '-q', '-p', 'no:cacheprovider']],
  },
  jest: {
    files: {
      'package.json': '{ "name": "one-jest", "private": true }\n',
      'one.test.js': "test('one', () => expect(1 + 1).toBe(2));\n",
    },
    runner: ['jest', { jestBin: JEST }],
    native: ['node', [JEST, '--ci']],
  },
  vitest: {
    files: {
      'package.json': '{ "name": "one-vitest", "private": true, "type": "module" }\n',
      'vitest.config.mjs': 'export default {};\n',
      'one.test.mjs': "import { expect, test } from 'vitest';\ntest('one', () => expect(1 + 1).toBe(2));\n",
    },
    runner: ['vitest', { vitestDir: dirname(VITEST) }],
    native: ['node', [VITEST, 'run']],
  },
  ctest: {
    files: {
      'CMakeLists.txt':
        'cmake_minimum_required(VERSION 3.16)\nproject(one CXX)\nfind_package(GTest REQUIRED)\nenable_testing()\nadd_executable(one_test one_test.cpp)\ntarget_link_libraries(one_test GTest::gtest_main)\ninclude(GoogleTest)\ngtest_discover_tests(one_test)\n',
      'one_test.cpp': '#include <gtest/gtest.h>\nTEST(One, Adds) { EXPECT_EQ(1 + 1, 2); }\n',
    },
    runner: 'ctest',
    setup: [
      ['cmake', ['-S', '.', '-B', 'native-build', '-G', 'Ninja']],
      ['cmake', ['--build', 'native-build']],
    ],
    native: ['sh', ['-c', 'cmake --build native-build && ctest --test-dir native-build -Q']],
  },
  go: {
    files: {
      'go.mod': 'module example.com/one\n\ngo 1.22\n',
      'one_test.go':
        'package one\n\nimport "testing"\n\nfunc TestOne(t *testing.T) {\n\tif 1+1 != 2 {\n\t\tt.Fatal("sum")\n\t}\n}\n',
    },
    runner: 'go',
    native: ['go', ['test', '-count=1', './...']],
  },
  cargo: {
    files: {
      'Cargo.toml': '[package]\nname = "one"\nversion = "0.1.0"\nedition = "2021"\n',
      'src/lib.rs':
        '#[cfg(test)]\nmod tests {\n    #[test]\n    fn one() {\n        assert_eq!(1 + 1, 2);\n    }\n}\n',
    },
    runner: 'cargo',
    setup: [['cargo', ['test', '--no-run', '-q']]],
    native: ['cargo', ['test', '-q']],
  },
};

const only = args.filter((a) => !a.startsWith('-'));
const names = Object.keys(PROJECTS).filter((n) => only.length === 0 || only.includes(n));
const loadBefore = loadavg()
  .map((l) => l.toFixed(2))
  .join(' ');
const rows = [];
for (const name of names) {
  const project = PROJECTS[name];
  const root = mkdtempSync(join(tmpdir(), `suture-fixed-${name}-`));
  try {
    symlinkSync(join(REPO, 'node_modules'), join(root, 'node_modules'));
    write(root, { ...project.files, '.gitignore': '.suture/\nnode_modules\nnative-build/\ntarget/\n' });
    writeFileSync(
      join(root, 'suture.config.json'),
      JSON.stringify({ projects: [{ name, root: '.', runner: project.runner }] }, null, 2),
    );
    run('git', ['init', '-q'], root);
    run('git', ['add', '-A'], root);
    run('git', ['-c', 'user.email=b@e', '-c', 'user.name=b', 'commit', '-qm', 'one'], root);
    for (const [cmd, argv] of project.setup ?? []) {
      const r = run(cmd, argv, root);
      if (r.status !== 0) throw new Error(`${cmd} ${argv.join(' ')}: ${r.stderr.slice(-500)}`);
    }
    // warm both: the native command's caches and the gate's (build folders, compiled tests)
    const firstNative = timed(...project.native, root);
    if (firstNative.status !== 0) throw new Error(`native run failed:\n${firstNative.output.slice(-800)}`);
    const firstGate = timed('node', [SUTURE, 'run', '--no-heal'], root);
    if (firstGate.status !== 0)
      throw new Error(`suture run exited ${firstGate.status}:\n${firstGate.output.slice(-800)}`);
    const native = [];
    const gate = [];
    const outside = [];
    for (let i = 0; i < REPEATS; i++) {
      native.push(timed(...project.native, root).ms);
      const g = timed('node', [SUTURE, 'run', '--no-heal'], root);
      if (g.status !== 0) throw new Error(`suture run exited ${g.status}:\n${g.output.slice(-800)}`);
      gate.push(g.ms);
      const report = latestReport(root);
      outside.push(g.ms - report.projects[0].rounds.reduce((n, r) => n + r.durationMs, 0));
    }
    const report = latestReport(root);
    rows.push({
      name,
      tests: report.projects[0].rounds[0].tests.length,
      isolation: report.isolation?.workspace ?? report.isolation?.mode ?? '-',
      native: median(native),
      gate: median(gate),
      paired: median(gate.map((g, i) => g - native[i])),
      outside: median(outside),
    });
  } catch (error) {
    rows.push({ name, error: error.message.split('\n').slice(0, 3).join(' ') });
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

const nodeStart = median(Array.from({ length: 7 }, () => timed('node', ['-e', '0'], REPO).ms));
console.log(`the fixed cost of a green gate on one passing test, ${REPEATS} warm repeats (medians)`);
console.log(
  `load average ${loadBefore} before, ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')} after; node -e 0 takes ${ms(nodeStart)}\n`,
);
console.log('runner   tests  native    suture run   fixed cost   outside the runner   goal <= 150 ms');
for (const r of rows) {
  if (r.error) {
    console.log(`${r.name.padEnd(8)} failed: ${r.error}`);
    continue;
  }
  console.log(
    `${r.name.padEnd(8)} ${String(r.tests).padStart(5)}  ${ms(r.native).padStart(8)}  ${ms(r.gate).padStart(10)}   ${ms(r.paired).padStart(10)}   ${ms(r.outside).padStart(18)}   ${r.paired <= GOAL_MS ? 'met' : 'not met'}`,
  );
}
console.log(
  '\nfixed cost: each gate less the native run just before it; outside the runner: the gate less its rounds as the report times them',
);
