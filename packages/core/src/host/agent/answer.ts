import type { HealAnswer, HealPatch, HealPhase } from '../../api/contracts/heal.js';
import type { GateReport } from '../../api/contracts/report.js';
import { analysisOf, projectsOf } from './analysis.js';
import { rankCandidates, type Candidate } from './candidates.js';
import { FAILING } from './collect.js';

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

function initialRounds(report: GateReport): GateReport['projects'][number]['rounds'] {
  return report.projects.flatMap((p) => p.rounds.filter((r) => r.kind === 'initial'));
}

/** The four phases as the gates went through them: analyse, plan, patch, verify. */
export function phasesOf(reports: readonly GateReport[]): HealPhase[] {
  const first = reports[0]!;
  const initial = initialRounds(first);
  const tests = initial.reduce((n, r) => n + r.tests.length, 0);
  const failing = initial.reduce((n, r) => n + r.tests.filter((t) => FAILING.has(t.status)).length, 0);
  const failures = first.projects.flatMap((p) => p.failures);
  const kinds = [...new Set(failures.map((f) => f.failure.kind))];
  const errors = first.projects.filter((p) => p.error).map((p) => `${p.name}: ${p.error}`);
  const analyse: HealPhase = {
    name: 'analyse',
    status: errors.length > 0 && failures.length === 0 ? 'failed' : 'done',
    duration_ms: initial.reduce((n, r) => n + r.durationMs, 0),
    summary:
      `ran ${plural(tests, 'test')} of ${plural(first.projects.length, 'project')}: ${failing} failing` +
      (failures.length > 0 ? `, ${plural(failures.length, 'root cause')} (${kinds.join(', ')})` : '') +
      (errors.length > 0 ? `; ${errors.join('; ')}` : ''),
  };
  const scoped = failures.filter((f) => f.scope);
  const plan: HealPhase = {
    name: 'plan',
    status: scoped.length > 0 ? 'done' : 'skipped',
    summary:
      scoped.length === 0
        ? 'no repairable failure to scope'
        : scoped
            .map((f) => {
              const top = f.scope!.entries[0];
              return `"${f.failure.title}": ${plural(f.scope!.entries.length, 'file')} in scope${top ? `, first ${top.file} (${top.reasons[0] ?? top.role})` : ''}`;
            })
            .join('; '),
  };
  const attempts = reports.flatMap((r) => r.projects.flatMap((p) => p.failures.flatMap((f) => f.attempts)));
  const verdicts = new Map<string, number>();
  for (const a of attempts) verdicts.set(a.verdict, (verdicts.get(a.verdict) ?? 0) + 1);
  const fixers = [...new Set(attempts.map((a) => a.fixer))];
  const validated = attempts.filter((a) => a.validation);
  const validationMs = validated.reduce((n, a) => n + (a.validation?.durationMs ?? 0), 0);
  const patch: HealPhase = {
    name: 'patch',
    status: attempts.length > 0 ? 'done' : 'skipped',
    duration_ms: Math.max(0, attempts.reduce((n, a) => n + a.durationMs, 0) - validationMs),
    summary:
      attempts.length === 0
        ? 'no fixer was asked'
        : `${plural(attempts.length, 'attempt')} by ${fixers.join(', ')}: ${[...verdicts].map(([v, n]) => `${n} ${v}`).join(', ')}`,
  };
  const regressions = reports.flatMap((r) =>
    r.projects.flatMap((p) => p.rounds.filter((x) => x.kind === 'regression')),
  );
  const verify: HealPhase = {
    name: 'verify',
    status: validated.length > 0 ? 'done' : 'skipped',
    duration_ms: validationMs + regressions.reduce((n, r) => n + r.durationMs, 0),
    summary:
      validated.length === 0
        ? 'no patch to re-run'
        : `${plural(validated.length, 'patch')} re-run against the failing tests, ${validated.filter((a) => a.validation?.passed).length} passed; ${plural(regressions.length, 'whole-selection re-run')} after the heals`,
  };
  return [analyse, plan, patch, verify];
}

export interface AnswerInput {
  sessionId: string;
  call: number;
  reports: readonly GateReport[];
  candidates: readonly Candidate[];
  durationMs: number;
}

/** Named and ranked patches (p1 is the best) with the bytes `suture_apply` writes, by id. */
export interface ComposedAnswer {
  answer: HealAnswer;
  writes: Record<string, Candidate['writes']>;
}

/**
 * fixed: one passing patch (or nothing failed); candidates: several passing patches, or the
 * closest ones when none passes; unfixable: no patch at all, with the failures' reasons.
 */
export function composeAnswer(input: AnswerInput): ComposedAnswer {
  const { reports } = input;
  const first = reports[0]!;
  const failures = analysisOf(reports);
  const ranked = rankCandidates(input.candidates);
  const passing = ranked.filter((c) => c.validation.passed);
  const chosen = passing.length > 0 ? passing : ranked;
  const patches: HealPatch[] = chosen.map(({ writes: _writes, ...c }, i) => ({
    id: `c${input.call}-p${i + 1}`,
    rank: i + 1,
    ...c,
  }));
  const writes = Object.fromEntries(chosen.map((c, i) => [patches[i]!.id, c.writes]));
  const initial = initialRounds(first);
  const tests = initial.reduce((n, r) => n + r.tests.length, 0);
  const projectErrors = first.projects.filter((p) => p.error).map((p) => `${p.name}: ${p.error}`);
  let status: HealAnswer['status'];
  let reason: string | undefined;
  let next: string;
  if (failures.length === 0 && projectErrors.length === 0) {
    status = 'fixed';
    reason = `nothing failed: the ${plural(tests, 'selected test')} pass`;
    next = 'nothing to apply';
  } else if (passing.length === 1) {
    status = 'fixed';
    next = `review the patch, then call suture_apply with session_id "${input.sessionId}" and patch_id "${patches[0]!.id}"`;
  } else if (patches.length > 0) {
    status = 'candidates';
    if (passing.length === 0)
      reason = 'no patch made every selected test pass; these came closest (fewest failing tests first)';
    next = `choose a patch and call suture_apply with session_id "${input.sessionId}" and its patch_id, or call suture_heal again with the same session_id and more context`;
  } else {
    status = 'unfixable';
    const why = failures.map((f) => `${f.title}: ${f.reason ?? f.outcome ?? 'no patch'}`);
    reason = [...projectErrors, ...why].join('\n') || 'no fixer proposed a patch';
    next = `call suture_heal again with the same session_id and a fuller change_description, another fixer, or fix it by hand`;
  }
  const attempts = reports.flatMap((r) => r.projects.flatMap((p) => p.failures.flatMap((f) => f.attempts)));
  const sum = (key: 'llmCalls' | 'inputTokens' | 'outputTokens' | 'costUsd'): number =>
    reports.reduce((n, r) => n + r.totals[key], 0);
  return {
    answer: {
      session_id: input.sessionId,
      call: input.call,
      status,
      analysis: { failures, projects: projectsOf(first) },
      phases: phasesOf(reports),
      patches,
      ...(reason ? { reason } : {}),
      totals: {
        tests,
        failing_before: initial.reduce((n, r) => n + r.tests.filter((t) => FAILING.has(t.status)).length, 0),
        failures: failures.length,
        attempts: attempts.length,
        patches: patches.length,
        llm_calls: sum('llmCalls'),
        input_tokens: sum('inputTokens'),
        output_tokens: sum('outputTokens'),
        cost_usd: sum('costUsd'),
        duration_ms: input.durationMs,
      },
      next,
    },
    writes,
  };
}
