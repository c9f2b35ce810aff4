import { posix, relative } from 'node:path';
import type { Failure, Scope, ScopeInput } from '../api/contracts/failure.js';
import {
  FixProposalSchema,
  UsageSchema,
  type AttemptSummary,
  type BugReport,
  type EditPolicy,
  type FixProposal,
  type Usage,
} from '../api/contracts/fix.js';
import type { Attempt, FailureReport, Validation } from '../api/contracts/report.js';
import { errorMessage, usageOfError } from '../api/errors.js';
import { redactDeep, type Redactor } from '../safety/redact.js';
import type { Fixer, Logger } from '../api/plugin.js';
import type { Journal } from '../safety/journal.js';
import { fileDiff } from '../safety/patch.js';
import { toPosix } from '../safety/paths.js';
import type { Emitter } from './events.js';
import { buildFixRequest } from './fix-request.js';
import { failingIds, selectionOf, type RoundRunner } from './rounds.js';
import type { GateProject } from './types.js';
import { validateEdits, type PlannedWrite } from './validate.js';

export interface Heal {
  failureId: string;
  /** What it wrote, one entry per file, with the content each file had just before, to undo exactly this heal. */
  writes: AppliedWrite[];
}

export interface AppliedWrite {
  /** Repository-relative POSIX path. */
  file: string;
  before: string | undefined;
  after: string;
}

/** Undoes writes newest first, leaving earlier heals of the same files in place. */
export async function undoWrites(
  journal: Journal,
  writes: readonly AppliedWrite[],
): Promise<Array<{ file: string; reason: string }>> {
  const conflicts: Array<{ file: string; reason: string }> = [];
  for (const w of [...writes].reverse()) {
    const conflict = await journal.putBack(w.file, w.after, w.before);
    if (conflict) conflicts.push(conflict);
  }
  return conflicts;
}

export interface HealContext {
  project: GateProject;
  repoRoot: string;
  journal: Journal;
  fixers: readonly Fixer[];
  rounds: RoundRunner;
  emitter: Emitter;
  logger: Logger;
  signal: AbortSignal;
  conflicts: Array<{ file: string; reason: string }>;
  /** Masks secrets in what is sent to fixers (evidence, source slices, history). */
  redact?: Redactor;
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

/** Asks a fixer, never letting its failure escape: a throw or garbage becomes a reason. */
async function propose(
  fixer: Fixer,
  request: Parameters<Fixer['propose']>[0],
  ctx: HealContext,
): Promise<{ proposal?: FixProposal; error?: string; usage?: Usage }> {
  // A signal per call: aborted when the gate is, and once the call is over, so a fixer's
  // leftover work (a CLI process, an HTTP stream) is cancelled instead of running on.
  const call = new AbortController();
  const onAbort = (): void => call.abort(ctx.signal.reason);
  ctx.signal.addEventListener('abort', onAbort, { once: true });
  if (ctx.signal.aborted) call.abort(ctx.signal.reason);
  const aborted = new Promise<never>((_, reject) => {
    call.signal.addEventListener(
      'abort',
      () => reject(new Error('the run was interrupted while the fixer was working')),
      { once: true },
    );
  });
  aborted.catch(() => undefined);
  try {
    const raw = await Promise.race([
      fixer.propose(request, { signal: call.signal, logger: ctx.logger, root: ctx.project.root }),
      aborted,
    ]);
    const parsed = FixProposalSchema.safeParse(raw);
    if (!parsed.success) {
      const issues = parsed.error.issues
        .slice(0, 3)
        .map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`)
        .join('; ');
      const usage = UsageSchema.safeParse((raw as { usage?: unknown } | null)?.usage);
      return {
        error: `${fixer.name} returned an invalid proposal: ${issues}`,
        ...(usage.success ? { usage: usage.data } : {}),
      };
    }
    return { proposal: parsed.data };
  } catch (error) {
    const usage = usageOfError(error);
    return { error: errorMessage(error), ...(usage ? { usage } : {}) };
  } finally {
    ctx.signal.removeEventListener('abort', onAbort);
    call.abort();
  }
}

function repoPath(ctx: HealContext, file: string): string {
  return toPosix(relative(ctx.repoRoot, posix.join(toPosix(ctx.project.root), file)));
}

async function applyWrites(ctx: HealContext, writes: readonly PlannedWrite[]): Promise<AppliedWrite[]> {
  const applied: AppliedWrite[] = [];
  for (const w of writes) {
    const file = repoPath(ctx, w.file);
    applied.push({ file, before: w.before, after: w.after });
    await ctx.journal.write(file, w.after);
  }
  return applied;
}

async function validateRun(ctx: HealContext, failure: Failure): Promise<Validation> {
  const result = await ctx.rounds.run('retry', selectionOf(ctx.project, failure));
  const newFailures = await ctx.rounds.analyze(result);
  const failing = failingIds(result);
  const seen = new Set(result.tests.map((t) => t.id));
  const stillFailing = failure.tests
    .filter((id) => failing.has(id) || !seen.has(id))
    .map((id) => ({
      id,
      message: result.tests.find((t) => t.id === id)?.message ?? (seen.has(id) ? undefined : 'did not run'),
    }));
  const sameCause = newFailures.some((f) => f.fingerprint === failure.fingerprint);
  const buildErrors = result.diagnostics.some((d) => d.severity === 'error');
  const passed =
    result.status !== 'error' &&
    result.status !== 'timeout' &&
    stillFailing.length === 0 &&
    !sameCause &&
    !(failure.blocksAll && buildErrors);
  return {
    passed,
    command: result.command,
    durationMs: result.durationMs,
    stillFailing,
    fingerprints: newFailures.map((f) => f.fingerprint).sort(),
    ...(result.error ? { error: result.error } : {}),
    ...(!passed && newFailures.length > 0
      ? {
          error: newFailures
            .map((f) => `${f.kind}: ${f.title}`)
            .slice(0, 5)
            .join('\n'),
        }
      : {}),
  };
}

/**
 * What a patch that did not heal caused, for the next attempt's history: the new failures and the
 * tests still failing with the start of their messages (the report keeps only the short reason).
 */
function validationOutcome(v: Validation): string {
  const lines = [v.error ?? `${v.stillFailing.length} test(s) still failing`];
  if (v.stillFailing.length > 0) lines.push('Still failing:');
  for (const t of v.stillFailing.slice(0, 5)) {
    const message = t.message?.trim().split('\n').slice(0, 8).join('\n    ').slice(0, 800);
    lines.push(`- ${t.id}${message ? `: ${message}` : ''}`);
  }
  if (v.stillFailing.length > 5) lines.push(`- ... and ${v.stillFailing.length - 5} more`);
  return lines.join('\n');
}

/**
 * The attempt loop for one failure group: fixers in ladder order, each proposal validated,
 * applied through the journal and re-run; a failed attempt is restored before the next one.
 */
export async function healFailure(
  ctx: HealContext,
  failure: Failure,
  rawScope: ScopeInput,
  scope: Scope,
): Promise<{ report: FailureReport; heal?: Heal }> {
  const { project } = ctx;
  const maxAttempts = project.heal.maxAttempts;
  const policy = policyOf(project);
  const attempts: Attempt[] = [];
  const history: AttemptSummary[] = [];
  const diagnoses: string[] = [];
  const seenFingerprints = new Set<string>();
  const seenDiffs = new Map<string, number>();
  let budget = 0;
  let fixerIndex = 0;
  const fixers = ctx.fixers.filter((f) => !f.kinds || f.kinds.includes(failure.kind));
  const end = (
    outcome: FailureReport['outcome'],
    reason?: string,
    bug?: BugReport,
  ): { report: FailureReport } => ({
    report: {
      failure,
      outcome,
      scope,
      attempts,
      reverted: false,
      ...(reason ? { reason } : {}),
      ...(bug ? { bug } : {}),
    },
  });
  if (fixers.length === 0) return end('unfixable', `no configured fixer handles ${failure.kind} failures`);

  while (budget < maxAttempts && fixerIndex < fixers.length) {
    if (ctx.signal.aborted) return end('exhausted', 'the run was interrupted');
    const fixer = fixers[fixerIndex]!;
    const number = attempts.length + 1;
    const startedAt = new Date();
    await ctx.emitter.emit('onAttemptStart', {
      project: project.name,
      failure,
      attempt: number,
      fixer: fixer.name,
    });
    const built = await buildFixRequest({
      project: { name: project.name, root: project.root, language: project.runner.language },
      failure,
      scope,
      rawScope,
      history,
      policy,
      attempt: budget + 1,
      maxAttempts,
      tokenBudget: project.heal.tokenBudget,
    });
    const request = ctx.redact ? redactDeep(built, ctx.redact) : built;
    const { proposal, error, usage: errorUsage } = await propose(fixer, request, ctx);
    const record: Attempt = {
      attempt: number,
      fixer: fixer.name,
      verdict: 'fixer-error',
      edits: [],
      expectationChanged: false,
      durationMs: 0,
      startedAt: startedAt.toISOString(),
    };
    let stop: { outcome: FailureReport['outcome']; reason?: string; bug?: BugReport } | undefined;
    let heal: Heal | undefined;

    if (!proposal) {
      record.reason = error;
      if (errorUsage) record.usage = errorUsage;
      budget++;
      if (fixerIndex < fixers.length - 1) fixerIndex++;
    } else {
      if (proposal.usage) record.usage = proposal.usage;
      if (proposal.verdict === 'unfixable') {
        record.verdict = 'unfixable';
        record.reason = proposal.diagnosis;
        diagnoses.push(`${fixer.name}: ${proposal.diagnosis}`);
        fixerIndex++;
      } else if (proposal.verdict === 'product-bug') {
        record.verdict = 'product-bug';
        record.rationale = proposal.rationale;
        stop = { outcome: 'product-bug', reason: proposal.bug.summary, bug: proposal.bug };
      } else {
        record.edits = proposal.edits;
        record.rationale = proposal.rationale;
        const check = await validateEdits({
          projectRoot: project.root,
          edits: proposal.edits,
          scope,
          policy,
          analyzer: project.analyzer,
        });
        if (!check.ok) {
          record.verdict = 'refused';
          record.reason = check.reason;
          budget++;
        } else {
          record.expectationChanged = check.expectationChanged;
          const preview = check.writes
            .map((w) => fileDiff(repoPath(ctx, w.file), w.before, w.after))
            .join('');
          const repeat = seenDiffs.get(preview);
          if (repeat !== undefined) {
            record.verdict = 'refused';
            record.diff = preview;
            record.reason = `the same patch as attempt ${repeat}, which did not heal`;
            fixerIndex++;
          } else {
            seenDiffs.set(preview, number);
            const applied = await applyWrites(ctx, check.writes);
            record.diff = preview;
            const validation = await validateRun(ctx, failure);
            record.validation = validation;
            budget++;
            if (validation.passed) {
              record.verdict = 'healed';
              heal = { failureId: failure.id, writes: applied };
            } else {
              record.verdict = 'failed-validation';
              record.reason = validation.error ?? `${validation.stillFailing.length} test(s) still failing`;
              ctx.conflicts.push(...(await undoWrites(ctx.journal, applied)));
              const key = validation.fingerprints.join(',');
              if (seenFingerprints.has(key))
                stop = { outcome: 'exhausted', reason: 'the same failure came back twice; stopping early' };
              seenFingerprints.add(key);
            }
          }
        }
      }
    }
    record.durationMs = Date.now() - startedAt.getTime();
    attempts.push(record);
    history.push({
      attempt: number,
      fixer: fixer.name,
      verdict: record.verdict,
      ...(record.rationale ? { rationale: record.rationale } : {}),
      ...(record.diff ? { diff: record.diff } : {}),
      outcome:
        record.verdict === 'healed'
          ? 'healed'
          : record.validation && !record.validation.passed
            ? validationOutcome(record.validation)
            : (record.reason ?? record.verdict),
    });
    await ctx.emitter.emit('onAttemptEnd', { project: project.name, failure, attempt: record });
    if (heal) return { report: { failure, outcome: 'healed', scope, attempts, reverted: false }, heal };
    if (stop) return end(stop.outcome, stop.reason, stop.bug);
  }
  if (attempts.length > 0 && attempts.every((a) => a.verdict === 'unfixable'))
    return end('unfixable', diagnoses.join('\n'));
  const last = [...attempts].reverse().find((a) => a.reason)?.reason;
  return end(
    'exhausted',
    `no fix healed it after ${attempts.length} attempt(s)${last ? `; last: ${last}` : ''}`,
  );
}
