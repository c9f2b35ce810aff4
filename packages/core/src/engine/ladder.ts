import type { AttemptVerdict } from '../api/contracts/report.js';

/**
 * What happens after an attempt ends with a verdict:
 * - stop: the failure group ends here, with the verdict as its outcome (healed, product-bug).
 * - retry: the same fixer is asked again, with this attempt in its history.
 * - next-fixer: the next fixer of the ladder is asked (none left: the group ends).
 * - next-fixer-or-retry: the next fixer when there is one, else the same one again (a timeout or
 *   a dropped connection may not happen twice).
 */
export type LadderMove = 'stop' | 'retry' | 'next-fixer' | 'next-fixer-or-retry';

export interface LadderRule {
  /** The attempt counts against `heal.maxAttempts`. */
  costsAttempt: boolean;
  then: LadderMove;
  /**
   * The group ends early when the re-run shows the same failures as an earlier attempt of the
   * group did: the fixer is going round in circles.
   */
  stopsOnSameFailureTwice: boolean;
}

/**
 * The fixer ladder, one row per verdict. The heal loop reads this table and nothing else to decide
 * what comes after an attempt. An answer that was cheap to reject (a patch seen before, a request
 * already refused, a fixer that says it cannot help) costs no attempt; one that was applied and
 * re-run, or refused by the engine, does.
 */
export const LADDER: Readonly<Record<AttemptVerdict, LadderRule>> = {
  healed: { costsAttempt: true, then: 'stop', stopsOnSameFailureTwice: false },
  'product-bug': { costsAttempt: true, then: 'stop', stopsOnSameFailureTwice: false },
  'failed-validation': { costsAttempt: true, then: 'retry', stopsOnSameFailureTwice: true },
  refused: { costsAttempt: true, then: 'retry', stopsOnSameFailureTwice: false },
  'fixer-error': { costsAttempt: true, then: 'next-fixer-or-retry', stopsOnSameFailureTwice: false },
  unfixable: { costsAttempt: false, then: 'next-fixer', stopsOnSameFailureTwice: false },
  'repeated-patch': { costsAttempt: false, then: 'next-fixer', stopsOnSameFailureTwice: false },
  'repeated-request': { costsAttempt: false, then: 'next-fixer', stopsOnSameFailureTwice: false },
};

/** Where the ladder stands: attempts spent and the fixer to ask next. */
export interface LadderPosition {
  spent: number;
  fixer: number;
}

/** Why the ladder ends for a failure group. */
export type LadderEnd = 'stopped' | 'same-failure-twice' | 'out-of-attempts' | 'out-of-fixers';

/** The position after an attempt with `verdict`, or why the group ends there. */
export function climb(
  position: LadderPosition,
  verdict: AttemptVerdict,
  limits: { maxAttempts: number; fixers: number; sameFailureTwice: boolean },
): { next: LadderPosition } | { end: LadderEnd } {
  const rule = LADDER[verdict];
  if (rule.then === 'stop') return { end: 'stopped' };
  if (rule.stopsOnSameFailureTwice && limits.sameFailureTwice) return { end: 'same-failure-twice' };
  const spent = position.spent + (rule.costsAttempt ? 1 : 0);
  let fixer = position.fixer;
  if (rule.then === 'next-fixer') fixer++;
  if (rule.then === 'next-fixer-or-retry' && fixer < limits.fixers - 1) fixer++;
  if (spent >= limits.maxAttempts) return { end: 'out-of-attempts' };
  if (fixer >= limits.fixers) return { end: 'out-of-fixers' };
  return { next: { spent, fixer } };
}
