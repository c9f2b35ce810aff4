import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Edit } from '@suture/core';
import { scriptedFixer } from '@suture/core/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, copy, gate } from './support.js';

afterAll(cleanup);

const SOURCES = ['src/calc.cpp', 'src/calc.h'];

/** One proposal per attempt, each a way for the code under test to make `Calc.Adds` report green. */
const TAMPERINGS: Array<{ name: string; edits: Edit[]; reason: RegExp }> = [
  {
    name: 'OK lines printed, then _exit(0)',
    edits: [
      {
        file: 'src/calc.cpp',
        search: '#include <cstdlib>',
        replace: '#include <cstdio>\n#include <unistd.h>',
      },
      {
        file: 'src/calc.cpp',
        search: '  return a - b;',
        replace:
          '  std::printf("[       OK ] Calc.Adds (0 ms)\\n[  PASSED  ] 2 tests.\\n");\n  std::fflush(stdout);\n  _exit(0);',
      },
    ],
    reason:
      /^tampering edit to src\/calc\.cpp: line 7 adds "\[ {7}OK \] Calc\.Adds \(0 ms\)\\n\[ {2}PASSED {2}\] 2 tests\.\\n", printed text that reads as a test result \(and 1 more\).*heal\.allowTestWeakening/,
  },
  {
    name: 'EXPECT_EQ defined away in the header of the code under test',
    edits: [
      {
        file: 'src/calc.h',
        search: '#pragma once',
        replace: '#pragma once\n#define EXPECT_EQ(a, b) EXPECT_TRUE(true)',
      },
    ],
    reason:
      /^tampering edit to src\/calc\.h: line 2 adds `#define EXPECT_EQ`, a redefinition of a test macro/,
  },
  {
    name: 'GTEST_SKIP() from the code under test',
    edits: [{ file: 'src/calc.cpp', search: '  return a - b;', replace: '  GTEST_SKIP();\n  return a - b;' }],
    reason: /^tampering edit to src\/calc\.cpp: line 6 adds GTEST_SKIP\(\), a skip of the running test/,
  },
];

describe('proposals that make C++ code under test report its own success', () => {
  it('refuses each before it is built, naming the file and the line; the sources stay as they were and the gate exits 1', async () => {
    const root = await copy('exit-early');
    const before = await Promise.all(SOURCES.map((f) => readFile(join(root, f), 'utf8')));
    const fixer = scriptedFixer(
      TAMPERINGS.map((t) => ({ verdict: 'edits' as const, rationale: 'make it green', edits: t.edits })),
    );
    const report = await gate(root, {
      fixers: [fixer],
      heal: { maxAttempts: TAMPERINGS.length, maxFilesPerAttempt: 2 },
    });
    expect(report.exitCode).toBe(1);
    const project = report.projects[0]!;
    expect(project.status).not.toBe('recovered');
    const adds = project.failures.find((f) => f.failure.tests.includes('Calc.Adds'))!;
    expect(adds.outcome).not.toBe('healed');
    expect(adds.attempts.map((a) => a.verdict)).toEqual(TAMPERINGS.map(() => 'refused'));
    expect(adds.attempts.map((a) => a.reason)).toEqual(
      TAMPERINGS.map((t) => expect.stringMatching(t.reason)),
    );
    expect(await Promise.all(SOURCES.map((f) => readFile(join(root, f), 'utf8')))).toEqual(before);
  }, 600_000);
});
