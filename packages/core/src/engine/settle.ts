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
  /** A project-relative path as heals name their writes (repository-relative). */
  repoPath: (file: string) => string;
}

const list = (items: readonly string[]): string =>
  items.length <= 5 ? items.join(', ') : `${items.slice(0, 5).join(', ')} and ${items.length - 5} more`;

/**
 * The reports as the final tree has them. A heal the regression run undid is `reverted` (with
 * the tests it broke), and so is a failure that only passed thanks to it. A failure still failing
 * when it was tried whose tests pass on the final tree was healed by a later heal that wrote a file
 * of its scope; with no such heal, nothing the run did explains the pass, and it is flaky.
 * Returns new reports; the ones given are left as they are.
 */
export function settle(input: SettleInput): FailureReport[] {
  const order = new Map(input.reports.map((r, i) => [r.failure.id, i]));
  const touches = (heal: Heal, r: FailureReport): boolean => {
    const scope = new Set((r.scope?.entries ?? []).map((e) => input.repoPath(e.file)));
    return heal.writes.some((w) => scope.has(w.file));
  };
  const revertOf = (id: string | undefined): Revert | undefined =>
    id === undefined ? undefined : input.reverts.find((v) => v.heal.failureId === id);
  return input.reports.map((r, i): FailureReport => {
    const own = revertOf(r.failure.id);
    const byId = input.healedBy.get(r.failure.id);
    const by = revertOf(byId);
    const settled = r.outcome === 'healed' && !own && !by;
    if (settled || !(STILL_FAILING.has(r.outcome) || own || by)) return r;
    if (input.final && passesFinally(r.failure, input.final)) {
      // a product bug the final tree no longer shows is not reported as one
      const { bug: _bug, ...passing } = r;
      const since = input.kept.filter(
        (h) => h.failureId !== r.failure.id && (order.get(h.failureId) ?? -1) > i && touches(h, r),
      );
      const credited = since.length > 0 ? since : own || by ? input.kept : [];
      if (credited.length > 0)
        return {
          ...passing,
          outcome: 'healed',
          reason: `its tests pass on the final tree, after the heal of ${list(credited.map((h) => h.title))}`,
        };
      return {
        ...passing,
        outcome: 'flaky',
        reason:
          'it failed when it was tried and passes on the final tree, and no heal since wrote a file of its scope',
      };
    }
    if (own)
      return {
        ...r,
        outcome: 'reverted',
        broke: own.broke,
        reason: `the heal was reverted: ${own.reason ?? `the regression run broke ${list(own.broke)}`}`,
      };
    if (by)
      return {
        ...r,
        outcome: 'reverted',
        reason: `its tests passed after the heal of ${by.heal.title}, which was reverted: ${by.reason ?? `it broke ${list(by.broke)}`}`,
      };
    return r;
  });
}
