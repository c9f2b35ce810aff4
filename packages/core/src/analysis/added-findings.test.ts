import { describe, expect, it } from 'vitest';
import { addedFindings, tamperingFrom, type Finding } from './added-findings.js';

const fork = (line: number, context = 'pid = os.fork()'): Finding => ({
  key: 'call os.fork',
  line,
  reason: 'os.fork()',
  context,
});

describe('addedFindings', () => {
  it('counts only what the edit added: a kept finding, even moved to another line, is not new', () => {
    expect(addedFindings([fork(3)], [fork(9)])).toEqual([]);
    expect(addedFindings([], [fork(3)])).toEqual([fork(3)]);
  });

  it('a second copy is new, and it is the copy that is named, not the line that was there', () => {
    const added = addedFindings([fork(10)], [fork(2, 'if os.fork() > 0: os._exit(0)'), fork(11)]);
    expect(added).toEqual([fork(2, 'if os.fork() > 0: os._exit(0)')]);
  });

  it('a finding the edit removed does not pay for one it added under another key', () => {
    const exit: Finding = { key: 'call os._exit', line: 4, reason: 'os._exit()' };
    expect(addedFindings([fork(1)], [exit])).toEqual([exit]);
  });
});

describe('tamperingFrom', () => {
  it('names the first added finding with its line and counts the rest', () => {
    const exit: Finding = { key: 'call os._exit', line: 5, reason: 'os._exit(), which ends the run' };
    expect(tamperingFrom([], [exit, fork(2)])).toBe('line 2 adds os.fork() (and 1 more)');
    expect(tamperingFrom([fork(2)], [fork(2)])).toBeUndefined();
  });
});
