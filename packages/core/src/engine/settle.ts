import type { FailureReport } from '../api/contracts/report.js';
import { passesFinally, STILL_FAILING, type FinalState } from './final-state.js';
import type { Revert } from './regression.js';
import type { Heal } from './writes.js';

export interface SettleInput {
  /** Every failure group's report as the heal passes left it, in the order the groups were taken. */
  reports: readonly FailureReport[];
  /** Heals that stay. */
  kept: readonly Heal[];
  /** Heals the regression run undid. */
  reverts: readonly Revert[];
  /** Failure id -> the failure whose heal its tests passed after, before any fixer was asked. */
  healedBy: ReadonlyMap<string, string>;
  /** How the tests stand on the final tree; undefined when the tree did not change. */
  final?: FinalState;
}

const list = (items: readonly string[]): string =>
  items.length <= 5 ? items.join(', ') : `${items.slice(0, 5).join(', ')} and ${items.length - 5} more`;

/**
 * The reports as the final tree has them. A heal the regression run undid is `reverted` (with
 * the tests it broke), and so is a failure that only passed thanks to it. A failure still failing
 * when it was tried whose tests pass on the final tree was healed by a later heal (or, with no
 * heal since, is flaky). Returns new reports; the ones given are left as they are.
 */
export function settle(input: SettleInput): FailureReport[] {
  const order = new Map(input.reports.map((r, i) => [r.failure.id, i]));
  const revertOf = (id: string | undefined): Revert | undefined =>
    id === undefined ? undefined : input.reverts.find((v) => v.heal.failureId === id);
  return input.reports.map((r, i): FailureReport => {
    const own = revertOf(r.failure.id);
    const byId = input.healedBy.get(r.failure.id);
    const by = revertOf(byId);
    const settled = r.outcome === 'healed' && !own && !by;
    if (settled || !(STILL_FAILING.has(r.outcome) || own || by)) return r;
    if (input.final && passesFinally(r.failure, input.final)) {
      const since = input.kept.filter(
        (h) => h.failureId !== r.failure.id && (order.get(h.failureId) ?? -1) > i,
      );
      const credited = since.length > 0 ? since : own || by ? input.kept : [];
      if (credited.length > 0)
        return {
          ...r,
          outcome: 'healed',
          reason: `its tests pass on the final tree, after the heal of ${list(credited.map((h) => h.title))}`,
        };
      return {
        ...r,
        outcome: 'flaky',
        reason: 'it failed when it was tried and passes on the final tree with no heal since',
      };
    }
    if (own)
      return {
        ...r,
        outcome: 'reverted',
        broke: own.broke,
        reason: `the heal was reverted: the regression run broke ${list(own.broke)}`,
      };
    if (by)
      return {
        ...r,
        outcome: 'reverted',
        reason: `its tests passed after the heal of ${by.heal.title}, which was reverted: it broke ${list(by.broke)}`,
      };
    return r;
  });
}
