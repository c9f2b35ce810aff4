import type { Failure, Scope, ScopeInput } from '../api/contracts/failure.js';
import type { AttemptSummary, BugReport, EditPolicy, FixRequest } from '../api/contracts/fix.js';
import type { Attempt, FailureReport, PluginErrorEntry } from '../api/contracts/report.js';
import type { Fixer, Logger } from '../api/plugin.js';
import { fileDiff } from '../safety/patch.js';
import { redactDeep, type Redactor } from '../safety/redact.js';
import { privatePathsOf } from '../safety/repo-secrets.js';
import { askFixer } from './ask-fixer.js';
import { oversized } from './bounds.js';
import { applyContained, validateContained } from './containment.js';
import { differentialCheck } from './differential.js';
import type { Emitter } from './events.js';
import { buildFixRequest } from './fix-request.js';
import { climb, type LadderPosition } from './ladder.js';
import { pluginErrorEntry } from './plugin-errors.js';
import type { RefusalMemory } from './refusals.js';
import type { RoundRunner } from './rounds.js';
import type { RunSpend } from './spend.js';
import type { GateProject } from './types.js';
import { validateRun, validationOutcome } from './validate-run.js';
import type { ProposalView } from './validate.js';
import { repoPath, undoWrites, type Conflict, type Heal, type TreeWriter } from './writes.js';

export interface HealContext {
  project: GateProject;
  repoRoot: string;
  /** Where heals are written while validated: the journal in place, or the workspace's view. */
  journal: TreeWriter;
  /** Where proposals are read when heals are not in the user's tree (a workspace). */
  view?: ProposalView;
  /** The view's path for suture's own reads (the sources shown to fixers), and its pin. */
  workspace?: { readRoot: string; pin(files: readonly string[]): Promise<void> };
  /**
   * Waits for the workspace, opened while the failures were analyzed, and sets `journal`, `view`
   * and `workspace` to it: called before anything is shown to a fixer, so nothing is written
   * and no patched code runs before.
   */
  ready?: () => Promise<void>;
  /** The whole ladder, in config order; a fixer's place in it is its identity. */
  fixers: readonly Fixer[];
  rounds: RoundRunner;
  emitter: Emitter;
  logger: Logger;
  signal: AbortSignal;
  /** Requests refused earlier in the run, shared by every failure group. */
  refusals: RefusalMemory;
  /** Masks secrets in what is sent to fixers (evidence, source slices, history). */
  redact?: Redactor;
  /** The run's spend budget and the fixers out for the run, shared by every failure group. */
  spend?: RunSpend;
  /** The config's `secrets.files` (relative to `repoRoot`): fixers with file tools may not read them. */
  secretFiles?: readonly string[];
}

/** What healing one failure group did: its report, the heal to keep, and what went wrong on the way. */
export interface HealResult {
  report: FailureReport;
  heal?: Heal;
  /** Files the user changed while a failed patch was being undone. */
  conflicts: Conflict[];
  /** Fixers that threw or broke their contract. */
  pluginErrors: PluginErrorEntry[];
}

interface Rung {
  fixer: Fixer;
  /** Place in the whole ladder, for the refusal memory. */
  key: string;
}

/** One attempt's result: its record and what it leaves behind. */
interface AttemptResult {
  record: Attempt;
  heal?: Heal;
  bug?: BugReport;
  conflicts: Conflict[];
  pluginError?: PluginErrorEntry;
  /** The re-run showed the same failures as an earlier attempt did. */
  sameFailureTwice: boolean;
}

function policyOf(project: GateProject): EditPolicy {
  const h = project.heal;
  return {
    editable: h.editable,
    allowedPaths: h.allowedPaths,
    deniedPaths: h.deniedPaths,
    allowTestWeakening: h.allowTestWeakening,
    allowNewFiles: h.allowNewFiles,
    maxFilesPerAttempt: h.maxFilesPerAttempt,
  };
}

/** Asks one fixer once and carries its answer as far as it goes: refused, re-run, healed. */
async function runAttempt(
  ctx: HealContext,
  failure: Failure,
  scope: Scope,
  rung: Rung,
  request: FixRequest,
  refusalKey: string,
  earlier: readonly Attempt[],
  record: Attempt,
): Promise<AttemptResult> {
  const { project } = ctx;
  const done = (extra: Partial<AttemptResult> = {}): AttemptResult => ({
    record,
    conflicts: [],
    sameFailureTwice: false,
    ...extra,
  });
  const refused = ctx.refusals.find(refusalKey);
  if (refused) {
    record.verdict = 'repeated-request';
    record.reason = `${rung.fixer.name} already answered this request (project ${refused.project}, "${refused.failure}", attempt ${refused.attempt}: ${refused.verdict}${refused.reason ? `: ${refused.reason.split('\n')[0]}` : ''}); not sent again`;
    return done();
  }
  const answer = await askFixer(
    rung.fixer,
    request,
    {
      signal: ctx.signal,
      logger: ctx.logger,
      root: project.root,
      privatePaths: privatePathsOf(ctx.repoRoot, project.root, ctx.secretFiles),
      ...(ctx.spend ? { spend: ctx.spend } : {}),
    },
    { ms: project.heal.fixerTimeoutMs, setting: 'heal.fixerTimeoutMs' },
  );
  if ('error' in answer) {
    record.reason = answer.error;
    if (answer.usage) record.usage = answer.usage;
    if (answer.unavailable) ctx.spend?.skip(rung.key, answer.error);
    const pluginError = answer.broken
      ? pluginErrorEntry(
          {
            plugin: rung.fixer.name,
            kind: 'fixer',
            phase: 'propose',
            project: project.name,
            subject: `"${failure.title}", attempt ${record.attempt}`,
          },
          answer.broken.cause,
        )
      : undefined;
    return done(pluginError ? { pluginError } : {});
  }
  const { proposal } = answer;
  if (proposal.usage) record.usage = proposal.usage;
  if (proposal.verdict === 'unfixable') {
    record.verdict = 'unfixable';
    record.reason = proposal.diagnosis;
    return done();
  }
  if (proposal.verdict === 'product-bug') {
    record.verdict = 'product-bug';
    record.rationale = proposal.rationale;
    return done({ bug: proposal.bug });
  }
  const tooLarge = oversized(proposal.edits, project.heal);
  if (tooLarge) {
    // Kept as a summary and a hash: a report that stored it would be as large as the proposal.
    record.verdict = 'refused';
    record.reason = tooLarge;
    return done();
  }
  record.edits = proposal.edits;
  record.rationale = proposal.rationale;
  const edits = JSON.stringify(proposal.edits);
  const refusedBefore = earlier.find((a) => a.verdict === 'refused' && JSON.stringify(a.edits) === edits);
  if (refusedBefore) {
    record.verdict = 'repeated-patch';
    record.reason = `the same patch as attempt ${refusedBefore.attempt}, which was refused: ${refusedBefore.reason ?? ''}`;
    return done();
  }
  const check = await validateContained({
    projectRoot: project.root,
    ...(ctx.view ? { view: ctx.view } : {}),
    edits: proposal.edits,
    scope,
    policy: policyOf(project),
    analyzer: project.analyzer,
    signal: ctx.signal,
  });
  if (!check.ok) {
    record.verdict = 'refused';
    record.reason = check.reason;
    return done();
  }
  record.expectationChanged = check.expectationChanged;
  if (check.unreadTests.length > 0) record.unreadTests = check.unreadTests;
  record.diff = check.writes
    .map((w) => fileDiff(repoPath(ctx.repoRoot, project.root, w.file), w.before, w.after))
    .join('');
  const repeat = earlier.find((a) => a.verdict === 'failed-validation' && a.diff === record.diff);
  if (repeat) {
    record.verdict = 'repeated-patch';
    record.reason = `the same patch as attempt ${repeat.attempt}, which did not heal`;
    return done();
  }
  const written = await applyContained(ctx.journal, ctx.repoRoot, project.root, check.writes, ctx.signal);
  if (!written.ok) {
    record.verdict = 'refused';
    record.reason = written.reason;
    return done({ conflicts: written.conflicts });
  }
  const applied = written.applied;
  const edited = new Set(check.writes.map((w) => w.file));
  const validation = await validateRun(project, ctx.rounds, failure, edited);
  record.validation = validation;
  if (validation.passed) {
    const differential = await differentialCheck({
      project,
      rounds: ctx.rounds,
      journal: ctx.journal,
      failure,
      scope,
      planned: check.writes,
      applied,
      validation,
      signal: ctx.signal,
    });
    if (differential.record) record.differential = differential.record;
    if (!differential.stands) {
      record.verdict = 'refused';
      record.reason = differential.reason;
      return done({ conflicts: differential.conflicts });
    }
    // a case renamed by the patch ran with other values: what the test checks changed
    const renamed = validation.renamed;
    if (renamed && Object.keys(renamed).length > 0) record.expectationChanged = true;
    record.verdict = 'healed';
    return done({
      heal: { failureId: failure.id, title: failure.title, writes: applied, ...(renamed ? { renamed } : {}) },
    });
  }
  record.verdict = 'failed-validation';
  record.reason = validation.error ?? `${validation.stillFailing.length} test(s) still failing`;
  const key = validation.fingerprints.join(',');
  return done({
    conflicts: await undoWrites(ctx.journal, applied),
    sameFailureTwice: earlier.some(
      (a) => a.verdict === 'failed-validation' && a.validation?.fingerprints.join(',') === key,
    ),
  });
}

function summary(record: Attempt): AttemptSummary {
  return {
    attempt: record.attempt,
    fixer: record.fixer,
    verdict: record.verdict,
    ...(record.rationale ? { rationale: record.rationale } : {}),
    ...(record.diff ? { diff: record.diff } : {}),
    outcome:
      record.verdict === 'healed'
        ? 'healed'
        : record.validation && !record.validation.passed
          ? validationOutcome(record.validation)
          : (record.reason ?? record.verdict),
  };
}

/** The group's outcome when the ladder ran out without a heal or a product bug. */
function exhausted(attempts: readonly Attempt[]): { outcome: FailureReport['outcome']; reason: string } {
  const gaveUp = attempts.filter((a) => a.verdict === 'unfixable');
  if (
    gaveUp.length > 0 &&
    attempts.every((a) => a.verdict === 'unfixable' || a.verdict === 'repeated-request')
  )
    return { outcome: 'unfixable', reason: gaveUp.map((a) => `${a.fixer}: ${a.reason}`).join('\n') };
  const last = [...attempts].reverse().find((a) => a.reason)?.reason;
  return {
    outcome: 'exhausted',
    reason: `no fix healed it after ${attempts.length} attempt(s)${last ? `; last: ${last}` : ''}`,
  };
}

/**
 * The attempt loop for one failure group: fixers in ladder order, each proposal validated,
 * applied through the journal and re-run; a failed attempt is restored before the next one.
 * What comes after each attempt is the ladder table's row for its verdict.
 */
export async function healFailure(
  ctx: HealContext,
  failure: Failure,
  rawScope: ScopeInput,
  scope: Scope,
): Promise<HealResult> {
  const { project } = ctx;
  const maxAttempts = project.heal.maxAttempts;
  const rungs: Rung[] = ctx.fixers
    .map((fixer, i) => ({ fixer, key: `${i}:${fixer.name}` }))
    .filter(({ fixer }) => !fixer.kinds || fixer.kinds.includes(failure.kind));
  const attempts: Attempt[] = [];
  const history: AttemptSummary[] = [];
  const conflicts: Conflict[] = [];
  const pluginErrors: PluginErrorEntry[] = [];
  const end = (
    outcome: FailureReport['outcome'],
    reason?: string,
    kept: { heal?: Heal; bug?: BugReport } = {},
  ): HealResult => ({
    report: {
      failure,
      outcome,
      scope,
      attempts,
      ...(reason ? { reason } : {}),
      ...(kept.bug ? { bug: kept.bug } : {}),
    },
    conflicts,
    pluginErrors,
    ...(kept.heal ? { heal: kept.heal } : {}),
  });
  if (rungs.length === 0) return end('unfixable', `no configured fixer handles ${failure.kind} failures`);

  let position: LadderPosition = { spent: 0, fixer: 0 };
  for (;;) {
    if (ctx.signal.aborted) return end('exhausted', 'the run was interrupted');
    // A fixer out for the run (budget spent, endpoint down) was reported where it went out.
    while (position.fixer < rungs.length && ctx.spend?.skippedFor(rungs[position.fixer]!.key))
      position = { ...position, fixer: position.fixer + 1 };
    if (position.fixer >= rungs.length) {
      if (attempts.length > 0) {
        const last = exhausted(attempts);
        return end(last.outcome, last.reason);
      }
      const out = rungs.map((r) => `${r.fixer.name}: ${ctx.spend?.skippedFor(r.key)}`).join('\n');
      return end('exhausted', `not asked: every fixer is out for this run\n${out}`);
    }
    const rung = rungs[position.fixer]!;
    const startedAt = new Date();
    const record: Attempt = {
      attempt: attempts.length + 1,
      fixer: rung.fixer.name,
      verdict: 'fixer-error',
      edits: [],
      expectationChanged: false,
      durationMs: 0,
      startedAt: startedAt.toISOString(),
    };
    await ctx.emitter.emit('onAttemptStart', {
      project: project.name,
      failure,
      attempt: record.attempt,
      fixer: rung.fixer.name,
    });
    // What the fixer is shown is frozen in the view: its patch applies to those bytes, and the
    // heal lands only where the user's file still holds them.
    await ctx.ready?.();
    await ctx.workspace?.pin(scope.entries.map((e) => e.file));
    const built = await buildFixRequest({
      project: { name: project.name, root: project.root, language: project.runner.language },
      ...(ctx.workspace ? { readRoot: ctx.workspace.readRoot } : {}),
      failure,
      scope,
      rawScope,
      history,
      policy: policyOf(project),
      attempt: position.spent + 1,
      maxAttempts,
      tokenBudget: project.heal.tokenBudget,
    });
    const request = ctx.redact ? redactDeep(built, ctx.redact) : built;
    const refusalKey = ctx.refusals.key(rung.key, request);
    const result = await runAttempt(ctx, failure, scope, rung, request, refusalKey, attempts, record);
    record.durationMs = Date.now() - startedAt.getTime();
    ctx.spend?.record(record.usage);
    attempts.push(record);
    conflicts.push(...result.conflicts);
    if (result.pluginError) pluginErrors.push(result.pluginError);
    if (record.verdict !== 'repeated-request') {
      history.push(summary(record));
      ctx.refusals.remember(refusalKey, {
        project: project.name,
        failure: failure.title,
        attempt: record.attempt,
        verdict: record.verdict,
        ...(record.reason ? { reason: record.reason } : {}),
      });
    }
    await ctx.emitter.emit('onAttemptEnd', { project: project.name, failure, attempt: record });
    const step = climb(position, record.verdict, {
      maxAttempts,
      fixers: rungs.length,
      sameFailureTwice: result.sameFailureTwice,
    });
    if ('next' in step) {
      position = step.next;
      continue;
    }
    if (step.end === 'stopped' && record.verdict === 'healed') return end('healed', undefined, result);
    if (step.end === 'stopped') return end('product-bug', result.bug?.summary, result);
    if (step.end === 'same-failure-twice')
      return end('exhausted', 'the same failure came back twice; stopping early');
    const last = exhausted(attempts);
    return end(last.outcome, last.reason);
  }
}
