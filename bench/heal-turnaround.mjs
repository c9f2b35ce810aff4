#!/usr/bin/env node
// A heal's turnaround per runner: on a small project whose one test fails on a misspelled name in
// the code under test, the wall time of `suture run` (check mode, the deterministic hints fixer,
// the default isolation) from the moment the first run has found the failure to the moment the
// heal is validated, and what of that is not test time: opening the workspace, analysis and
// scope, the fixer, and the re-run's start-up over the runner's own re-run of that one test.
// The Rust project's bug is a missing widening (`sum` for `sum.into()`), the kind rustc marks
// machine-applicable. Prints figures; it is not a test.
//
//   node bench/heal-turnaround.mjs [runner...] [--repeats N]
//
// The projects are made in a temporary folder outside the repository, whose node_modules points
// at this repository's (plugins, Jest, Vitest); every repeat starts from the committed bug.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
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
const REPEATS = repeatsArg(args, 3);

/**
 * One project per runner: its files (the code under test misspells a name it means), the runner
 * entry of the config, and the runner's own command that re-runs the failing test alone.
 */
const PROJECTS = {
  pytest: {
    files: {
      'app/cart.py':
        'def subtotal(prices):\n    return sum(prices)\n\n\ndef total(prices, shipping):\n    return subtotl(prices) + shipping\n',
      'app/__init__.py': '',
      'tests/test_cart.py':
        'from app.cart import total\n\n\ndef test_total():\n    assert total([1, 2], 3) == 6\n\n\ndef test_other():\n    assert 1 + 1 == 2\n',
    },
    runner: 'pytest',
    rerun: ['python3', ['-m', 'pytest', '-q', '-p', 'no:cacheprovider', 'tests/test_cart.py::test_total']],
  },
  jest: {
    files: {
      'package.json': '{ "name": "turnaround-jest", "private": true }\n',
      'cart.js':
        'function subtotal(prices) {\n  return prices.reduce((a, b) => a + b, 0);\n}\n\nfunction total(prices, shipping) {\n  return subtotl(prices) + shipping;\n}\n\nmodule.exports = { subtotal, total };\n',
      'cart.test.js':
        "const { total } = require('./cart');\n\ntest('total', () => expect(total([1, 2], 3)).toBe(6));\ntest('other', () => expect(1 + 1).toBe(2));\n",
    },
    runner: ['jest', { jestBin: JEST }],
    rerun: ['node', [JEST, '--ci', 'cart.test.js', '-t', '^total$']],
  },
  vitest: {
    files: {
      // no config file: Vite bundles one into node_modules/.vite-temp, which here is this
      // repository's node_modules, outside the project and read-only in the sandbox
      'package.json': '{ "name": "turnaround-vitest", "private": true, "type": "module" }\n',
      'cart.mjs':
        'export function subtotal(prices) {\n  return prices.reduce((a, b) => a + b, 0);\n}\n\nexport function total(prices, shipping) {\n  return subtotl(prices) + shipping;\n}\n',
      'cart.test.mjs':
        "import { expect, test } from 'vitest';\nimport { total } from './cart.mjs';\n\ntest('total', () => expect(total([1, 2], 3)).toBe(6));\ntest('other', () => expect(1 + 1).toBe(2));\n",
    },
    runner: ['vitest', { vitestDir: dirname(VITEST) }],
    rerun: ['node', [VITEST, 'run', 'cart.test.mjs', '-t', '^total$']],
  },
  ctest: {
    files: {
      'CMakeLists.txt':
        'cmake_minimum_required(VERSION 3.16)\nproject(turnaround CXX)\nfind_package(GTest REQUIRED)\nenable_testing()\nadd_library(cart cart.cpp)\nadd_executable(cart_test cart_test.cpp)\ntarget_link_libraries(cart_test cart GTest::gtest_main)\ninclude(GoogleTest)\ngtest_discover_tests(cart_test)\n',
      'cart.h': '#pragma once\n#include <string>\nstd::string label(int cents);\n',
      'cart.cpp':
        '#include "cart.h"\n\nstd::string label(int cents) {\n  std::strin out = std::to_string(cents);\n  return out + " cents";\n}\n',
      'cart_test.cpp':
        '#include <gtest/gtest.h>\n#include "cart.h"\nTEST(Cart, Label) { EXPECT_EQ(label(5), "5 cents"); }\nTEST(Cart, Other) { EXPECT_EQ(1 + 1, 2); }\n',
    },
    runner: 'ctest',
    rerun: [
      'sh',
      ['-c', 'cmake --build build-native && ctest --test-dir build-native -Q -R "^Cart\\.Label$"'],
    ],
    native: [
      ['cmake', ['-S', '.', '-B', 'build-native', '-G', 'Ninja']],
      ['sh', ['-c', "sed -i 's/std::strin /std::string /' cart.cpp && cmake --build build-native"]],
    ],
  },
  go: {
    files: {
      'go.mod': 'module example.com/cart\n\ngo 1.22\n',
      'cart.go':
        'package cart\n\nfunc Subtotal(prices []int) int {\n\ts := 0\n\tfor _, p := range prices {\n\t\ts += p\n\t}\n\treturn s\n}\n\nfunc Total(prices []int, shipping int) int {\n\treturn Subtotl(prices) + shipping\n}\n',
      'cart_test.go':
        'package cart\n\nimport "testing"\n\nfunc TestTotal(t *testing.T) {\n\tif Total([]int{1, 2}, 3) != 6 {\n\t\tt.Fatal("total")\n\t}\n}\n\nfunc TestOther(t *testing.T) {}\n',
    },
    runner: 'go',
    rerun: ['go', ['test', '-count=1', '-run', '^TestTotal$', '.']],
  },
  cargo: {
    files: {
      'Cargo.toml': '[package]\nname = "cart"\nversion = "0.1.0"\nedition = "2021"\n',
      'src/lib.rs':
        'pub fn total(prices: &[i32], shipping: i32) -> i64 {\n    let sum: i32 = prices.iter().sum::<i32>() + shipping;\n    sum\n}\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn totals() {\n        assert_eq!(super::total(&[1, 2], 3), 6);\n    }\n\n    #[test]\n    fn other() {\n        assert_eq!(1 + 1, 2);\n    }\n}\n',
    },
    runner: 'cargo',
    rerun: ['cargo', ['test', '-q', '--lib', '--', '--exact', 'tests::totals']],
  },
};

/**
 * A reporter, loaded by path, that writes when each event of the run reached it (one JSON line
 * each): the first failing test result, the end of each round, each attempt's start and end.
 */
const TIMELINE = `import { appendFileSync } from 'node:fs';
const out = process.env.SUTURE_BENCH_TIMELINE;
const mark = (event, extra = {}) => appendFileSync(out, JSON.stringify({ event, t: Date.now(), ...extra }) + '\\n');
export default function timeline() {
  return {
    name: 'bench-timeline',
    apiVersion: 1,
    onRunStart: () => mark('run-start'),
    onTestResult: (e) => { if (e.test.status !== 'passed' && e.test.status !== 'skipped') mark('failing-test'); },
    onRoundEnd: (e) => mark('round-end', { kind: e.round.kind, ms: e.round.durationMs }),
    onAttemptStart: () => mark('attempt-start'),
    onAttemptEnd: (e) => mark('attempt-end', { verdict: e.attempt.verdict, ms: e.attempt.durationMs, validation: (e.attempt.validation?.durationMs ?? 0) + (e.attempt.differential?.durationMs ?? 0) }),
    onProjectEnd: () => mark('project-end'),
  };
}
`;

/**
 * The parts of one heal from the timeline: the first round; the turnaround, from the first
 * failing test result to the end of the attempt that healed; before the attempt (the rest of the
 * first round, analysis, scope, the fixer's request); and the attempt's re-run as it timed it.
 */
function phases(lines, report) {
  const events = lines.map((l) => JSON.parse(l));
  const first = (event, test = () => true) => events.find((e) => e.event === event && test(e));
  const project = report.projects[0];
  const healed = first('attempt-end', (e) => e.verdict === 'healed');
  if (!healed) {
    const why = project.failures.map((f) => `${f.outcome}: ${f.reason ?? ''}`).join('; ');
    throw new Error(`not healed (${project.status}): ${why}`);
  }
  const failing = first('failing-test') ?? first('round-end', (e) => e.kind === 'initial');
  const start = events.filter((e) => e.event === 'attempt-start' && e.t <= healed.t).at(-1);
  return {
    initial: first('round-end', (e) => e.kind === 'initial').ms,
    turnaround: healed.t - failing.t,
    beforeAttempt: start.t - failing.t,
    attempt: healed.ms,
    validation: healed.validation,
    afterHeal: first('project-end').t - healed.t,
  };
}

const only = args.filter((a) => !a.startsWith('-'));
const names = Object.keys(PROJECTS).filter((n) => only.length === 0 || only.includes(n));
const loadBefore = loadavg()
  .map((l) => l.toFixed(2))
  .join(' ');
const rows = [];
for (const name of names) {
  const project = PROJECTS[name];
  const root = mkdtempSync(join(tmpdir(), `suture-turnaround-${name}-`));
  try {
    symlinkSync(join(REPO, 'node_modules'), join(root, 'node_modules'));
    write(root, {
      ...project.files,
      '.gitignore': '.suture/\nnode_modules\nbuild-native/\ntarget/\n__pycache__/\n',
    });
    writeFileSync(
      join(root, 'suture.config.json'),
      JSON.stringify(
        {
          projects: [{ name, root: '.', runner: project.runner }],
          fixers: ['hints'],
          reporters: ['json', './timeline.mjs'],
        },
        null,
        2,
      ),
    );
    writeFileSync(join(root, 'timeline.mjs'), TIMELINE);
    run('git', ['init', '-q'], root);
    run('git', ['add', '-A'], root);
    run('git', ['-c', 'user.email=b@e', '-c', 'user.name=b', 'commit', '-qm', 'bug'], root);
    // the runner's own re-run of the failing test, on the fixed code, in a copy of its own
    const fixedDir = mkdtempSync(join(tmpdir(), `suture-turnaround-${name}-native-`));
    let nativeRerun;
    try {
      symlinkSync(join(REPO, 'node_modules'), join(fixedDir, 'node_modules'));
      write(fixedDir, project.files);
      for (const file of Object.keys(project.files)) {
        const text = readFileSync(join(fixedDir, file), 'utf8');
        writeFileSync(
          join(fixedDir, file),
          text
            .replace(/subtotl\b/g, 'subtotal')
            .replace(/Subtotl\b/g, 'Subtotal')
            .replace(/^ {4}sum\n/m, '    sum.into()\n'),
        );
      }
      for (const [cmd, argv] of project.native ?? []) {
        const r = run(cmd, argv, fixedDir);
        if (r.status !== 0)
          throw new Error(`${cmd} ${argv.join(' ')}: ${`${r.stdout}${r.stderr}`.slice(-500)}`);
      }
      const warm = timed(...project.rerun, fixedDir);
      if (warm.status !== 0) throw new Error(`native re-run failed:\n${warm.output.slice(-800)}`);
      nativeRerun = median(Array.from({ length: REPEATS }, () => timed(...project.rerun, fixedDir).ms));
    } finally {
      rmSync(fixedDir, { recursive: true, force: true });
    }
    // one gate to warm the caches (build folder, compiled tests), then the measured ones
    const samples = [];
    mkdirSync(join(root, '.suture'), { recursive: true });
    const timeline = join(root, '.suture', 'timeline.jsonl');
    for (let i = 0; i <= REPEATS; i++) {
      rmSync(timeline, { force: true });
      const g = timed('node', [SUTURE, 'run'], root, { SUTURE_BENCH_TIMELINE: timeline });
      if (g.status !== 0 && g.status !== 1)
        throw new Error(`suture run exited ${g.status}:\n${g.output.slice(-800)}`);
      const p = phases(readFileSync(timeline, 'utf8').trim().split('\n'), latestReport(root));
      if (i > 0) samples.push({ ...p, wall: g.ms });
    }
    const pick = (key) => median(samples.map((s) => s[key]));
    rows.push({
      name,
      wall: pick('wall'),
      initial: pick('initial'),
      turnaround: pick('turnaround'),
      beforeAttempt: pick('beforeAttempt'),
      attempt: pick('attempt'),
      validation: pick('validation'),
      afterHeal: pick('afterHeal'),
      nativeRerun,
    });
  } catch (error) {
    rows.push({ name, error: error.message.split('\n').slice(0, 3).join(' ') });
  } finally {
    if (process.env.SUTURE_BENCH_KEEP) console.error(`kept ${root}`);
    else rmSync(root, { recursive: true, force: true });
  }
}

console.log(
  `a heal's turnaround per runner, one misspelled name healed by the hints fixer, ${REPEATS} warm repeats (medians)`,
);
console.log(
  `load average ${loadBefore} before, ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')} after\n`,
);
console.log(
  'runner   suture run   first round   turnaround   to the attempt   attempt   its re-run   native re-run   not test time   after the heal',
);
for (const r of rows) {
  if (r.error) {
    console.log(`${r.name.padEnd(8)} failed: ${r.error}`);
    continue;
  }
  console.log(
    `${r.name.padEnd(8)} ${ms(r.wall).padStart(10)}   ${ms(r.initial).padStart(11)}   ${ms(r.turnaround).padStart(10)}   ${ms(r.beforeAttempt).padStart(14)}   ${ms(r.attempt).padStart(7)}   ${ms(r.validation).padStart(10)}   ${ms(r.nativeRerun).padStart(13)}   ${ms(r.turnaround - r.nativeRerun).padStart(13)}   ${ms(r.afterHeal).padStart(14)}`,
  );
}
console.log(
  "\nturnaround: from the first failing test result to the end of the attempt that healed; to the attempt: the rest of the first round, analysis, scope and the fixer's answer; its re-run: the attempt's validation (and differential check) as the engine times it; not test time: the turnaround less the runner's own re-run of the failing test on fixed code; after the heal: the regression run and the end of the project",
);
