import { UNREPAIRABLE_KINDS, type Failure } from '../api/contracts/failure.js';
import type { FailureReport, PluginErrorEntry } from '../api/contracts/report.js';
import { errorMessage } from '../api/errors.js';
import { healFailure, type HealContext } from './heal-loop.js';
import { pluginErrorEntry } from './plugin-errors.js';
import { privatePathsOf } from '../safety/repo-secrets.js';
import { applyScopePolicy, withoutPrivateFiles } from './scope-policy.js';
import { quarantineOf, quarantineWords, type QuarantineMatch } from './quarantine.js';
import { passesNow } from './triage.js';
import type { Conflict, Heal } from './writes.js';

/** What one pass over a list of failure groups did, in the order the groups were taken. */
/** Why a failure of a run that heals nothing was not healed. */
export const NO_HEAL_REASON = 'healing disabled (--no-heal)';

export interface HealPass {
  reports: FailureReport[];
  /** Validated heals, in the order they were made. */
  heals: Heal[];
  /** Failure id -> the failure id whose heal made its tests pass before any fixer was asked. */
  healedBy: Map<string, string>;
  conflicts: Conflict[];
  pluginErrors: PluginErrorEntry[];
}

export interface HealGroupsInput {
  failures: readonly Failure[];
  flaky: ReadonlySet<string>;
  /** Heals made before this pass (a pass over failures a healed build error had hidden). */
  earlier: readonly Heal[];
  noHeal: boolean;
}

const report = (failure: Failure, outcome: FailureReport['outcome'], reason: string): FailureReport => ({
  failure,
  outcome,
  reason,
  attempts: [],
});

/** Takes each failure group in turn: triaged away, skipped, already passing, or sent up the ladder. */
export async function healGroups(ctx: HealContext, input: HealGroupsInput): Promise<HealPass> {
  const pass: HealPass = { reports: [], heals: [], healedBy: new Map(), conflicts: [], pluginErrors: [] };
  /** Failure id -> the expired quarantine entries its tests match: it blocks again, named. */
  const expired = new Map<string, QuarantineMatch[]>();
  for (const failure of input.failures) {
    if (ctx.signal.aborted) {
      pass.reports.push(report(failure, 'skipped', 'the run was interrupted'));
      continue;
    }
    if (input.flaky.has(failure.id)) {
      pass.reports.push(
        report({ ...failure, kind: 'flaky' }, 'flaky', 'passed when re-run; not sent to a fixer'),
      );
      continue;
    }
    const quarantine = quarantineOf(failure, ctx.project.heal.quarantine);
    if (quarantine.held) {
      pass.reports.push({
        ...report(
          failure,
          'quarantined',
          `quarantined: ${quarantineWords(quarantine.matches)}; it does not block and no fixer was asked`,
        ),
        quarantine: quarantine.matches,
      });
      continue;
    }
    if (quarantine.matches.length > 0) expired.set(failure.id, quarantine.matches);
    if (!failure.repairable || UNREPAIRABLE_KINDS.includes(failure.kind)) {
      const why = failure.reason ?? `${failure.kind} failures are outside the code; no fixer was asked`;
      pass.reports.push(report(failure, 'unfixable', why));
      continue;
    }
    if (input.noHeal) {
      pass.reports.push(report(failure, 'skipped', NO_HEAL_REASON));
      continue;
    }
    const before = [...input.earlier, ...pass.heals];
    if (before.length > 0 && (await passesNow(failure, ctx.project, ctx.rounds))) {
      // One fix often heals several failures (the same bug behind parametrized cases): a failure
      // whose tests pass after the heals so far needs no fixer.
      const by = before[before.length - 1]!;
      pass.healedBy.set(failure.id, by.failureId);
      pass.reports.push(report(failure, 'healed', `its tests pass after the heal of ${by.title}`));
      continue;
    }
    let rawScope;
    try {
      rawScope = withoutPrivateFiles(
        await ctx.project.analyzer.scope(failure, ctx.rounds.info),
        privatePathsOf(ctx.repoRoot, ctx.project.root, ctx.secretFiles),
      );
    } catch (error) {
      pass.pluginErrors.push(
        pluginErrorEntry(
          {
            plugin: ctx.project.analyzer.name,
            kind: 'analyzer',
            phase: 'scope',
            project: ctx.project.name,
            subject: `"${failure.title}"`,
          },
          error,
        ),
      );
      pass.reports.push(report(failure, 'unfixable', `no scope: ${errorMessage(error)}`));
      continue;
    }
    const scope = applyScopePolicy(rawScope, ctx.project.heal, ctx.project.analyzer);
    if (scope.entries.length === 0) {
      const why = scope.excluded
        .slice(0, 5)
        .map((x) => `${x.file} (${x.reason})`)
        .join(', ');
      pass.reports.push({
        ...report(failure, 'unfixable', `no editable file in scope${why ? `: ${why}` : ''}`),
        scope,
      });
      continue;
    }
    const healed = await healFailure(ctx, failure, rawScope, scope);
    pass.reports.push(healed.report);
    pass.conflicts.push(...healed.conflicts);
    pass.pluginErrors.push(...healed.pluginErrors);
    if (healed.heal) pass.heals.push(healed.heal);
  }
  for (const [i, r] of pass.reports.entries()) {
    const matches = expired.get(r.failure.id);
    if (!matches || r.outcome === 'healed') continue;
    const words = `the quarantine of ${quarantineWords(matches)} is over, so it blocks again: ask its owner to fix it or to extend the entry in heal.quarantine`;
    ctx.logger.warn(`${ctx.project.name}: ${r.failure.title}: ${words}`);
    pass.reports[i] = { ...r, quarantine: matches, reason: r.reason ? `${words}; ${r.reason}` : words };
  }
  return pass;
}
