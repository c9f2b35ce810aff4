import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Edit } from '@suture/core';
import { scriptedFixer } from '@suture/core/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { gate } from './gate-support.js';
import { cleanup, copy } from './support.js';

afterAll(cleanup);

const TEST = '__tests__/calc.test.js';
const ADDS = `${TEST}::calc adds`;

async function proposing(edits: Edit[], heal: { allowTestWeakening?: boolean } = {}) {
  const root = await copy('weakening');
  const before = await readFile(join(root, TEST), 'utf8');
  const fixer = scriptedFixer(Array(3).fill({ verdict: 'edits', rationale: 'make it green', edits }));
  const report = await gate({ root, mode: 'fix', fixers: [fixer], heal: { maxAttempts: 1, ...heal } });
  const adds = report.projects[0]!.failures.find((f) => f.failure.tests.includes(ADDS));
  return { root, before, report, adds };
}

describe('weakening proposals through the gate on a real Jest project', () => {
  it.each([
    [
      'expect(...) rewritten to expect(true).toBe(true)',
      [{ file: TEST, search: 'expect(total).toBe(5);', replace: 'expect(true).toBe(true);' }],
      /in calc > adds, `expect\(total\)\.toBe\(5\)` became a constant that cannot fail/,
    ],
    [
      'a process.exit(0) in the test before its expect',
      [
        {
          file: TEST,
          search: '    expect(total).toBe(5);',
          replace: '    process.exit(0);\n    expect(total).toBe(5);',
        },
      ],
      /`expect\(total\)\.toBe\(5\)` can no longer fail: it comes after `process\.exit\(0\)` and never runs/,
    ],
    [
      'jest.mock of the module under test',
      [
        {
          file: TEST,
          search: "const { add } = require('../src/calc');",
          replace:
            "jest.mock('../src/calc', () => ({ add: () => 5 }));\nconst { add } = require('../src/calc');",
        },
      ],
      /mocks the code under test \(`jest\.mock\('\.\.\/src\/calc'/,
    ],
  ] as const)(
    'refuses %s with the reason; the test stays as it was and the gate exits 1',
    async (_name, edits, reason) => {
      const { root, before, report, adds } = await proposing([...edits]);
      expect(report.exitCode).toBe(1);
      expect(adds?.outcome).not.toBe('healed');
      expect(adds!.attempts[0]).toMatchObject({ verdict: 'refused', reason: expect.stringMatching(reason) });
      expect(adds!.attempts[0]!.reason).toMatch(/^test-weakening edit to __tests__\/calc\.test\.js: /);
      expect(await readFile(join(root, TEST), 'utf8')).toBe(before);
    },
  );

  it('does not take a process.exit(0) in the code under test, let past the guard, for a pass: the heal fails validation', async () => {
    // the guard refuses an exit added to code under test (tampering.test.ts); allowed, the run still does not take it for a pass
    const { root, report, adds } = await proposing(
      [{ file: 'src/calc.js', search: '  return a - b;', replace: '  process.exit(0);' }],
      { allowTestWeakening: true },
    );
    expect(report.exitCode).toBe(1);
    expect(adds!.attempts[0]).toMatchObject({ verdict: 'failed-validation', validation: { passed: false } });
    // Jest ends at the exit: the test reported no result, which is no pass
    expect(adds!.attempts[0]!.validation!.stillFailing).toEqual([{ id: ADDS, message: 'did not run' }]);
    expect(adds!.attempts[0]!.validation!.error).toMatch(
      /Jest's process exited with code 0 while __tests__\/calc\.test\.js ran, .*something in it ended the process/,
    );
    expect(await readFile(join(root, 'src/calc.js'), 'utf8')).toContain('return a - b;');
  });

  it('accepts a changed expected value, heals with it and flags it', async () => {
    const { report, adds } = await proposing([
      { file: TEST, search: 'expect(total).toBe(5);', replace: 'expect(total).toBe(-1);' },
    ]);
    expect(adds).toMatchObject({ outcome: 'healed' });
    expect(adds!.attempts[0]!.expectationChanged).toBe(true);
    expect(report.exitCode).toBe(0);
  });
});
