import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { scriptedFixer } from '@suture/core/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { commitAll, gate, gitStatus } from './gate-support.js';
import { cleanup, copy } from './support.js';

afterAll(cleanup);

const TEST = '__tests__/calc.test.js';
const ROW = `${TEST}::multiplies 2 by 3 into 7`;
const row = (search: string, replace: string) =>
  scriptedFixer([
    { verdict: 'edits', rationale: '2 times 3 is 6', edits: [{ file: TEST, search, replace }] },
  ]);

describe('a corrected test.each row on a real Jest project', () => {
  it('is validated by the case it became, known by its line, and flagged as an expectation change', async () => {
    const root = await copy('each-rows');
    commitAll(root);
    const report = await gate({
      root,
      mode: 'fix',
      fixers: [row('[2, 3, 7]', '[2, 3, 6]')],
      heal: { maxAttempts: 1 },
    });
    const failure = report.projects[0]!.failures.find((f) => f.failure.tests.includes(ROW))!;
    expect(failure.outcome).toBe('healed');
    const attempt = failure.attempts[0]!;
    expect(attempt.validation?.renamed).toEqual({ [ROW]: [`${TEST}::multiplies 2 by 3 into 6`] });
    expect(attempt.expectationChanged).toBe(true);
    expect(report.exitCode).toBe(0);
    expect(await readFile(join(root, TEST), 'utf8')).toContain('[2, 3, 6]');
  }, 300_000);

  it('does not heal the case by deleting its row, even with weakening allowed', async () => {
    const root = await copy('each-rows');
    commitAll(root);
    const report = await gate({
      root,
      mode: 'fix',
      fixers: [row('  [2, 3, 7],\n', '')],
      heal: { maxAttempts: 1, allowTestWeakening: true },
    });
    const failure = report.projects[0]!.failures.find((f) => f.failure.tests.includes(ROW))!;
    expect(failure.outcome).not.toBe('healed');
    expect(failure.attempts[0]!.verdict).toBe('failed-validation');
    expect(failure.attempts[0]!.validation?.renamed).toEqual({ [ROW]: [] });
    expect(report.exitCode).toBe(1);
    expect(gitStatus(root)).toBe('');
  }, 300_000);
});
