import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { scriptedFixer } from '@suture/core/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, copy, gate } from './support.js';

afterAll(cleanup);

const TEST = 'tests/calc_test.cpp';
const ASSERT = 'TEST(Calc, Adds) { EXPECT_EQ(add(2, 3), 5); }';

/** One proposal per attempt, each a way to make `Calc.Adds` green without fixing `add`. */
const WEAKENINGS: Array<{
  name: string;
  edit: { file: string; search: string; replace: string };
  reason: RegExp;
}> = [
  {
    name: 'the assertion made constant',
    edit: { file: TEST, search: ASSERT, replace: 'TEST(Calc, Adds) { EXPECT_TRUE(true); }' },
    reason: /became a constant that cannot fail/,
  },
  {
    name: 'EXPECT_EQ defined away',
    edit: {
      file: TEST,
      search: '#include "calc.h"',
      replace: '#include "calc.h"\n#define EXPECT_EQ(a, b) (void)0',
    },
    reason: /redefines an assertion/,
  },
  {
    name: 'a return before the assertion',
    edit: {
      file: TEST,
      search: ASSERT,
      replace: 'TEST(Calc, Adds) {\n  return;\n  EXPECT_EQ(add(2, 3), 5);\n}',
    },
    reason: /comes after `return;` and never runs/,
  },
  {
    name: 'the assertion moved into a lambda only cast to void',
    edit: {
      file: TEST,
      search: ASSERT,
      replace: 'TEST(Calc, Adds) {\n  auto f = [&] { EXPECT_EQ(add(2, 3), 5); };\n  (void)f;\n}',
    },
    reason: /sits in a function that is never called \(f\)/,
  },
  {
    name: 'the assertion under a constant of the file that is false',
    edit: {
      file: TEST,
      search: ASSERT,
      replace:
        'constexpr bool kChecked = false;\n\nTEST(Calc, Adds) {\n  if (kChecked) EXPECT_EQ(add(2, 3), 5);\n}',
    },
    reason: /sits in a branch that never runs \(`if \(kChecked\)`\)/,
  },
  {
    name: 'the assertion moved into a helper that checks nothing',
    edit: {
      file: TEST,
      search: ASSERT,
      replace:
        'static void check(int (*f)(int, int)) { EXPECT_TRUE(f != nullptr); }\n\nTEST(Calc, Adds) { check(add); }',
    },
    // the call of the helper stands where the assertion stood and checks less than it did
    reason: /`EXPECT_EQ\(add\(2, 3\), 5\)` became `check\(add\)`, which checks less/,
  },
  {
    name: 'CTest told the test is meant to fail',
    edit: {
      file: 'CMakeLists.txt',
      search: 'add_test(NAME whole COMMAND whole)',
      replace: 'add_test(NAME whole COMMAND whole)\nset_tests_properties(whole PROPERTIES WILL_FAIL TRUE)',
    },
    // the build file is never in a failure's scope, and a CTest property is test infrastructure besides
    reason: /outside the failure's scope|heal\.allowTestWeakening/,
  },
];

describe('weakening proposals on a real CMake + CTest + GoogleTest project', () => {
  it('refuses each way to turn Calc.Adds green without fixing add; the sources stay as they were and the gate exits 1', async () => {
    const root = await copy('exit-early');
    const before = await Promise.all([TEST, 'CMakeLists.txt'].map((f) => readFile(join(root, f), 'utf8')));
    const proposals = WEAKENINGS.map((w) => ({
      verdict: 'edits' as const,
      rationale: 'make it green',
      edits: [w.edit],
    }));
    const report = await gate(root, {
      fixers: [scriptedFixer(proposals)],
      heal: { maxAttempts: WEAKENINGS.length },
    });
    expect(report.exitCode).toBe(1);
    const adds = report.projects[0]!.failures.find((f) => f.failure.tests.includes('Calc.Adds'))!;
    expect(adds.outcome).not.toBe('healed');
    const refused = adds.attempts.filter((a) => a.verdict === 'refused');
    expect(refused.map((a) => a.reason)).toEqual(WEAKENINGS.map((w) => expect.stringMatching(w.reason)));
    expect(await Promise.all([TEST, 'CMakeLists.txt'].map((f) => readFile(join(root, f), 'utf8')))).toEqual(
      before,
    );
  }, 600_000);
});
