import { UNREPAIRABLE_KINDS, type Failure } from '../api/contracts/failure.js';
import type { FailureReport, ProjectReport } from '../api/contracts/report.js';
import { errorMessage } from '../api/errors.js';
import type { Redactor } from '../safety/redact.js';
import type { Fixer, GateMode, Logger } from '../api/plugin.js';
import type { Journal } from '../safety/journal.js';
import type { Emitter } from './events.js';
import { healFailure, undoWrites, type Heal } from './heal-loop.js';
import { createRoundRunner, failingIds, selectionOf } from './rounds.js';
import { applyScopePolicy } from './scope-policy.js';
import { projectStatus, projectTotals } from './totals.js';
import type { GateProject } from './types.js';

export interface ProjectGateContext {
  repoRoot: string;
  runDir: string;
  mode: GateMode;
  journal: Journal;
  fixers: readonly Fixer[];
  emitter: Emitter;
  logger: Logger;
  signal: AbortSignal;
  conflicts: Array<{ file: string; reason: string }>;
  redact?: Redactor;
}

export interface ProjectOutcome {
  report: ProjectReport;
  /** Heals that stay (validated and not reverted by the regression run). */
  heals: Heal[];
}

/** Flaky triage: failing tests that pass when re-run are flaky and never reach a fixer. */
async function triageFlaky(
  failures: Failure[],
  project: GateProject,
  rounds: ReturnType<typeof createRoundRunner>,
): Promise<Set<string>> {
  const flaky = new Set<string>();
  const candidates = failures.filter((f) => !f.blocksAll && f.tests.length > 0 && f.repairable);
  if (!project.runner.supportsSelection || project.heal.flakyReruns === 0 || candidates.length === 0)
    return flaky;
  const passedOnce = new Set<string>();
  for (let i = 0; i < project.heal.flakyReruns; i++) {
    const result = await rounds.run('retry', [...new Set(candidates.flatMap((f) => f.tests))]);
    for (const t of result.tests) if (t.status === 'passed') passedOnce.add(t.id);
  }
  for (const f of candidates) if (f.tests.every((t) => passedOnce.has(t))) flaky.add(f.id);
  return flaky;
}

/** Whether a failure's tests all run and pass now (a re-run of just them). */
async function passesNow(
  failure: Failure,
  project: GateProject,
  rounds: ReturnType<typeof createRoundRunner>,
): Promise<boolean> {
  const selection = selectionOf(project, failure);
  if (!selection) return false;
  const result = await rounds.run('retry', selection);
  if (result.status === 'error' || result.status === 'timeout') return false;
  const failing = failingIds(result);
  const ran = new Set(result.tests.filter((t) => t.status === 'passed').map((t) => t.id));
  return failure.tests.every((id) => ran.has(id) && !failing.has(id));
}

/** Gates one project: initial run, analysis, triage, healing, regression. */
export async function gateProject(project: GateProject, ctx: ProjectGateContext): Promise<ProjectOutcome> {
  const started = Date.now();
  await ctx.emitter.emit('onProjectStart', { project: project.name, runner: project.runner.name });
  const logger = ctx.logger;
  const rounds = createRoundRunner(project, ctx.runDir, ctx.emitter, logger, ctx.signal);
  const reports: FailureReport[] = [];
  let heals: Heal[] = [];
  /** Failures that passed after another failure's heal, with that heal. */
  const healedBy = new Map<FailureReport, Heal>();
  let error: string | undefined;

  const initial = await rounds.run('initial');
  const failures = await rounds.analyze(initial);
  if (initial.status === 'error' && failures.length === 0)
    error = initial.error ?? 'the runner could not run the tests';
  if (initial.status === 'timeout' && failures.length === 0)
    error = initial.error ?? `the run exceeded its time limit of ${project.timeoutMs} ms`;
  if (!error && initial.status !== 'passed' && failures.length === 0 && failingIds(initial).size > 0) {
    error = `${project.analyzer.name} found no failure to explain ${failingIds(initial).size} failing test(s)`;
  }
  // A run the runner calls failed, with no failing test to show for it (a report cut short, a
  // crash after the last result), is not green.
  if (!error && initial.status === 'failed' && failures.length === 0) {
    error = `${project.runner.name} reported a failed run (exit code ${initial.exitCode ?? 'none'}) but no failing test; see the output of ${initial.command || 'the run'}`;
  }

  const seen = new Set(failures.map((f) => f.fingerprint));
  const healAll = async (list: Failure[], flaky: Set<string>): Promise<void> => {
    for (const failure of list) {
      if (ctx.signal.aborted) {
        reports.push({
          failure,
          outcome: 'skipped',
          reason: 'the run was interrupted',
          attempts: [],
          reverted: false,
        });
        continue;
      }
      if (flaky.has(failure.id)) {
        reports.push({
          failure: { ...failure, kind: 'flaky' },
          outcome: 'flaky',
          reason: 'passed when re-run; not sent to a fixer',
          attempts: [],
          reverted: false,
        });
        continue;
      }
      if (!failure.repairable || UNREPAIRABLE_KINDS.includes(failure.kind)) {
        reports.push({
          failure,
          outcome: 'unfixable',
          reason: failure.reason ?? `${failure.kind} failures are outside the code; no fixer was asked`,
          attempts: [],
          reverted: false,
        });
        continue;
      }
      if (ctx.mode === 'no-heal') {
        reports.push({
          failure,
          outcome: 'skipped',
          reason: 'healing disabled (--no-heal)',
          attempts: [],
          reverted: false,
        });
        continue;
      }
      if (heals.length > 0 && (await passesNow(failure, project, rounds))) {
        // One fix often heals several failures (the same bug behind parametrized cases): a failure
        // whose tests pass after the heals so far needs no fixer.
        const by = heals[heals.length - 1]!;
        const title = reports.find((r) => r.failure.id === by.failureId)?.failure.title ?? by.failureId;
        const report: FailureReport = {
          failure,
          outcome: 'healed',
          reason: `its tests pass after the heal of ${title}`,
          attempts: [],
          reverted: false,
        };
        healedBy.set(report, by);
        reports.push(report);
        continue;
      }
      let rawScope;
      try {
        rawScope = await project.analyzer.scope(failure, rounds.info);
      } catch (e) {
        reports.push({
          failure,
          outcome: 'unfixable',
          reason: `no scope: ${errorMessage(e)}`,
          attempts: [],
          reverted: false,
        });
        continue;
      }
      const scope = applyScopePolicy(rawScope, project.heal, project.analyzer);
      if (scope.entries.length === 0) {
        const why = scope.excluded
          .slice(0, 5)
          .map((x) => `${x.file} (${x.reason})`)
          .join(', ');
        reports.push({
          failure,
          outcome: 'unfixable',
          reason: `no editable file in scope${why ? `: ${why}` : ''}`,
          scope,
          attempts: [],
          reverted: false,
        });
        continue;
      }
      const healed = await healFailure(
        {
          project,
          repoRoot: ctx.repoRoot,
          journal: ctx.journal,
          fixers: ctx.fixers,
          rounds,
          emitter: ctx.emitter,
          logger,
          signal: ctx.signal,
          conflicts: ctx.conflicts,
          ...(ctx.redact ? { redact: ctx.redact } : {}),
        },
        failure,
        rawScope,
        scope,
      );
      reports.push(healed.report);
      if (healed.heal) heals.push(healed.heal);
    }
  };

  await healAll(failures, error ? new Set<string>() : await triageFlaky(failures, project, rounds));
  const followed = new Set<FailureReport>();
  // A healed build or collection failure stopped tests from running: run the suite again and take
  // on the failures it had hidden (at most twice, so a chain of new breakage cannot loop).
  for (let round = 0; round < 2 && !ctx.signal.aborted && ctx.mode !== 'no-heal'; round++) {
    const unblocked = reports.some(
      (r) =>
        r.outcome === 'healed' && (r.failure.blocksAll || r.failure.tests.length === 0) && !followed.has(r),
    );
    if (!unblocked) break;
    for (const r of reports) if (r.outcome === 'healed') followed.add(r);
    const again = await rounds.run('retry');
    const hidden = (await rounds.analyze(again)).filter((f) => !seen.has(f.fingerprint));
    if (hidden.length === 0) break;
    for (const f of hidden) seen.add(f.fingerprint);
    await healAll(hidden, await triageFlaky(hidden, project, rounds));
  }

  if (heals.length > 0 && project.heal.regression && !ctx.signal.aborted)
    heals = await regression(project, ctx, rounds, initial, reports, heals, healedBy);

  const finalRound = [...rounds.rounds].reverse().find((r) => r.kind !== 'retry');
  const report: ProjectReport = {
    name: project.name,
    root: project.root,
    runner: project.runner.name,
    status: projectStatus(reports, error),
    rounds: rounds.rounds,
    failures: reports,
    totals: projectTotals(finalRound, reports),
    durationMs: Date.now() - started,
    ...(error ? { error } : {}),
  };
  await ctx.emitter.emit('onProjectEnd', { project: report });
  return { report, heals };
}

/**
 * One run of the whole suite after the heals. Tests that passed before and fail now mean a heal
 * broke something: heals are reverted newest first until the regression is gone.
 */
async function regression(
  project: GateProject,
  ctx: ProjectGateContext,
  rounds: ReturnType<typeof createRoundRunner>,
  initial: Awaited<ReturnType<typeof rounds.run>>,
  reports: FailureReport[],
  heals: Heal[],
  healedBy: ReadonlyMap<FailureReport, Heal>,
): Promise<Heal[]> {
  // Only tests that passed at first count: a healed collection error may reveal tests that were
  // never run before, and their failures are not the heal's doing.
  const passedBefore = new Set(initial.tests.filter((t) => t.status === 'passed').map((t) => t.id));
  const kept = [...heals];
  let result = await rounds.run('regression');
  await rounds.analyze(result);
  const broken = (): string[] => [...failingIds(result)].filter((id) => passedBefore.has(id));
  while (broken().length > 0 && kept.length > 0) {
    const newly = broken();
    const heal = kept.pop()!;
    ctx.conflicts.push(...(await undoWrites(ctx.journal, heal.writes)));
    const report = reports.find((r) => r.failure.id === heal.failureId);
    if (report) {
      report.outcome = 'exhausted';
      report.reverted = true;
      report.reason = `the heal was reverted: the regression run broke ${newly.slice(0, 5).join(', ')}`;
    }
    for (const [other, by] of healedBy) {
      if (by !== heal) continue;
      other.outcome = 'exhausted';
      other.reason = `its tests passed after the heal of ${report?.failure.title ?? heal.failureId}, which was reverted`;
    }
    result = await rounds.run('regression');
    await rounds.analyze(result);
  }
  return kept;
}
