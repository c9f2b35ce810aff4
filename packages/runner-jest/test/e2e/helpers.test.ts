import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Edit } from '@suture/core';
import { scriptedFixer } from '@suture/core/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { gate } from './gate-support.js';
import { cleanup, copy } from './support.js';

afterAll(cleanup);

const TEST = '__tests__/calc.test.js';
const UTILS = 'test/utils.js';

async function proposing(edits: Edit[]) {
  const root = await copy('helpers');
  const before = {
    test: await readFile(join(root, TEST), 'utf8'),
    utils: await readFile(join(root, UTILS), 'utf8'),
  };
  const fixer = scriptedFixer(Array(4).fill({ verdict: 'edits', rationale: 'make it green', edits }));
  const report = await gate({ root, mode: 'fix', fixers: [fixer], heal: { maxAttempts: 1 } });
  const attempts = report.projects[0]!.failures.flatMap((f) => f.attempts);
  return { root, before, report, attempts };
}

describe('the helpers a real Jest test calls', () => {
  it.each([
    [
      'the check helper of the test file gutted',
      { file: TEST, search: 'expect(candidate(2, 3)).toBe(5);', replace: 'expect(true).toBe(true);' },
      /in helper check, `expect\(candidate\(2, 3\)\)\.toBe\(5\)` became a constant that cannot fail/,
    ],
    [
      'the check helper no longer given the code under test',
      { file: TEST, search: '  check(add);', replace: '  check(() => 5);' },
      /removes 1 assertion from adds \(`check\(add\)`, or it no longer mentions check, add\)/,
    ],
  ])('refuses %s; the files stay as they were and the gate exits 1', async (_name, edit, reason) => {
    const { root, before, report, attempts } = await proposing([edit]);
    expect(report.exitCode).toBe(1);
    expect(attempts.length).toBeGreaterThan(0);
    for (const a of attempts)
      expect(a).toMatchObject({ verdict: 'refused', reason: expect.stringMatching(reason) });
    expect(await readFile(join(root, TEST), 'utf8')).toBe(before.test);
    expect(await readFile(join(root, UTILS), 'utf8')).toBe(before.utils);
  });

  it('heals a fix that also makes the helper assert through a local const, unflagged', async () => {
    const { report, attempts } = await proposing([
      { file: 'src/calc.js', search: 'return a - b;', replace: 'return a + b;' },
      {
        file: TEST,
        search: '  expect(candidate(2, 3)).toBe(5);\n',
        replace: '  const sum = candidate(2, 3);\n  expect(sum).toBe(5);\n',
      },
    ]);
    expect(attempts.map((a) => [a.verdict, a.expectationChanged])).toEqual([['healed', false]]);
    expect(report.exitCode).toBe(0);
  });
});
