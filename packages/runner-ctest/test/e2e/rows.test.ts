import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { scriptedFixer } from '@suture/core/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, copy, gate } from './support.js';

afterAll(cleanup);

const TEST = 'tests/rows_test.cpp';
const ROW = 'Rows/Mul.Multiplies/(2, 3, 7)';
const row = (search: string, replace: string) =>
  scriptedFixer([
    { verdict: 'edits', rationale: '2 times 3 is 6', edits: [{ file: TEST, search, replace }] },
  ]);

describe('a corrected GoogleTest parameter row on a real CMake + CTest project', () => {
  it('is validated by the case it became (CTest names a case by its value) and flagged as an expectation change', async () => {
    const root = await copy('rows');
    const report = await gate(root, {
      fixers: [row('std::make_tuple(2, 3, 7)', 'std::make_tuple(2, 3, 6)')],
      heal: { maxAttempts: 1 },
    });
    const failure = report.projects[0]!.failures.find((f) => f.failure.tests.includes(ROW))!;
    expect(failure.outcome).toBe('healed');
    const attempt = failure.attempts[0]!;
    expect(attempt.validation?.renamed).toEqual({ [ROW]: ['Rows/Mul.Multiplies/(2, 3, 6)'] });
    expect(attempt.expectationChanged).toBe(true);
    expect(report.exitCode).toBe(0);
    expect(await readFile(join(root, TEST), 'utf8')).toContain('std::make_tuple(2, 3, 6)');
  }, 600_000);

  it('does not heal the case by deleting its row, even with weakening allowed', async () => {
    const root = await copy('rows');
    const before = await readFile(join(root, TEST), 'utf8');
    const report = await gate(root, {
      fixers: [row('    std::make_tuple(2, 3, 7),\n', '')],
      heal: { maxAttempts: 1, allowTestWeakening: true },
    });
    const failure = report.projects[0]!.failures.find((f) => f.failure.tests.includes(ROW))!;
    expect(failure.outcome).not.toBe('healed');
    expect(failure.attempts[0]!.validation?.renamed).toEqual({ [ROW]: [] });
    expect(report.exitCode).toBe(1);
    expect(await readFile(join(root, TEST), 'utf8')).toBe(before);
  }, 600_000);
});
