import { checkTestEdit } from '@suture/core/testing';
import { describe, expect, it } from 'vitest';
import { checksAnalyzer } from '../src/index.js';

const FILE = 'checks/calc.checks';
const BEFORE = `# calc.sh, one operation a check
adds: test "$(sh bin/calc.sh add 2 3)" = 5
subtracts: test "$(sh bin/calc.sh sub 5 3)" = 2
`;
const edit = (from: string, to: string): string => {
  expect(BEFORE).toContain(from);
  return BEFORE.replace(from, to);
};
const check = (after: string): ReturnType<typeof checkTestEdit> =>
  checkTestEdit(checksAnalyzer(), FILE, BEFORE, after);

// What a hostile or lazy fixer would write to turn the failing check green without fixing calc.sh.
const WEAKENINGS: Array<[string, string]> = [
  ['the check made `true`', edit('test "$(sh bin/calc.sh sub 5 3)" = 2', 'true')],
  ['the check made `:`', edit('test "$(sh bin/calc.sh sub 5 3)" = 2', ':')],
  ['its status thrown away', edit('= 2', '= 2 || true')],
  ['its status thrown away with exit 0', edit('= 2', '= 2; exit 0')],
  ['a tautology', edit('test "$(sh bin/calc.sh sub 5 3)" = 2', 'test 2 = 2')],
  ['the check deleted', edit('subtracts: test "$(sh bin/calc.sh sub 5 3)" = 2\n', '')],
  ['the check commented out', edit('subtracts:', '# subtracts:')],
  ['the check no longer runs calc.sh', edit('$(sh bin/calc.sh sub 5 3)', '2')],
];

describe('the checks test model, through the gate guard', () => {
  it.each(WEAKENINGS)('refuses a weakening: %s', (_name, after) => {
    const verdict = check(after);
    expect(verdict.readByAnalyzer).toBe(true);
    expect(verdict.refused).toMatch(/test-weakening edit to checks\/calc\.checks/);
  });

  it('keeps a changed expected value, flagged', () => {
    const verdict = check(edit('= 2', '= -2'));
    expect(verdict).toEqual({ expectationChanged: true, readByAnalyzer: true });
  });

  it('keeps an added check and a reworded command, unflagged', () => {
    const verdict = check(`${BEFORE}multiplies: test "$(sh bin/calc.sh mul 2 3)" = 6\n`);
    expect(verdict).toEqual({ expectationChanged: false, readByAnalyzer: true });
  });

  it('reads nothing but checks files', () => {
    expect(checksAnalyzer().testModel?.('bin/calc.sh', 'echo 1\n')).toBeUndefined();
  });
});
