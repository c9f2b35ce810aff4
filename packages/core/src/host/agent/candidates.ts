import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Usage } from '../../api/contracts/fix.js';
import type { HealPatch, PatchUsage } from '../../api/contracts/heal.js';
import type { Attempt, GateReport } from '../../api/contracts/report.js';
import { sha256 } from '../../safety/atomic.js';
import { fileDiff } from '../../safety/patch.js';
import { FAILING, type AttemptPatch } from './collect.js';
import type { TreeCopy } from './copy-tree.js';
import type { PatchFile } from './session-store.js';

/** A patch before it is ranked and named: what it does, how it fared, and the bytes to apply. */
export type Candidate = Omit<HealPatch, 'id' | 'rank'> & { writes: PatchFile[] };

export function patchUsage(usages: ReadonlyArray<Usage | undefined>): PatchUsage {
  const used = usages.filter((u): u is Usage => u !== undefined);
  const model = used.find((u) => u.model)?.model;
  return {
    calls: used.reduce((n, u) => n + u.calls, 0),
    input_tokens: used.reduce((n, u) => n + u.inputTokens, 0),
    output_tokens: used.reduce((n, u) => n + u.outputTokens, 0),
    cost_usd: used.reduce((n, u) => n + u.costUsd, 0),
    ...(model ? { model } : {}),
  };
}

/** Files a unified diff of the engine's touches, in order. */
export function diffFiles(patch: string): string[] {
  return [...patch.matchAll(/^diff --git a\/(.+?) b\//gm)].map((m) => m[1]!);
}

async function readOptional(path: string): Promise<Buffer | undefined> {
  return readFile(path).catch(() => undefined);
}

const healingAttempt = (attempts: readonly Attempt[]): Attempt | undefined =>
  [...attempts].reverse().find((a) => a.verdict === 'healed');

/**
 * The gate's kept heals as one patch: the report's patch, the copy's final bytes of its files,
 * and how the copy's final tree fared (the whole selection re-run after the heals).
 */
export async function keptPatch(
  report: GateReport,
  copyRoot: string,
  copy: TreeCopy,
): Promise<Candidate | undefined> {
  if (!report.patch) return undefined;
  const healed = report.projects.flatMap((p) => p.failures.filter((f) => f.outcome === 'healed'));
  const heals = healed
    .map((f) => ({ failure: f, attempt: healingAttempt(f.attempts) }))
    .filter((h): h is { failure: (typeof healed)[number]; attempt: Attempt } => h.attempt !== undefined);
  const remaining = report.projects.flatMap((p) =>
    p.failures.filter((f) => f.outcome !== 'healed' && f.outcome !== 'flaky'),
  );
  const finalRounds = report.projects.flatMap((p) =>
    p.rounds.filter((r) => r.kind === 'regression' || r.kind === 'recheck'),
  );
  const testsRun = new Set<string>(finalRounds.flatMap((r) => r.tests.map((t) => t.id)));
  for (const h of heals) for (const t of h.failure.failure.tests) testsRun.add(t);
  const stillFailing = new Map<string, string | undefined>();
  for (const r of finalRounds)
    for (const t of r.tests) if (FAILING.has(t.status)) stillFailing.set(t.id, t.message?.split('\n')[0]);
  for (const f of remaining)
    for (const t of f.failure.tests) if (!stillFailing.has(t)) stillFailing.set(t, f.failure.title);
  const writes: PatchFile[] = [];
  for (const file of diffFiles(report.patch)) {
    const after = await readOptional(join(copyRoot, file));
    const before = copy.hashes.get(file);
    writes.push({
      file,
      ...(before ? { before } : {}),
      ...(after ? { after: after.toString('base64') } : {}),
    });
  }
  const command = heals.map((h) => h.attempt.validation?.command).find(Boolean);
  return {
    diff: report.patch,
    files: writes.map((w) => w.file),
    fixer: [...new Set(heals.map((h) => h.attempt.fixer))].join(', '),
    rationale: heals
      .map((h) => h.attempt.rationale ?? '')
      .filter(Boolean)
      .join('\n\n'),
    expectation_changed: heals.some((h) => h.attempt.expectationChanged),
    failures: heals.map((h) => h.failure.failure.id),
    validation: {
      passed: stillFailing.size === 0 && report.projects.every((p) => !p.error),
      tests_run: [...testsRun],
      still_failing: [...stillFailing].map(([id, message]) => ({ id, ...(message ? { message } : {}) })),
      ...(command ? { command } : {}),
    },
    usage: patchUsage(heals.map((h) => h.attempt.usage)),
    writes,
  };
}

/**
 * A patch that was applied and re-run but did not pass, made to stand on the caller's tree: each
 * file's diff is taken from the caller's bytes as the heal first saw them (read back and checked
 * against the copy's hash). Undefined when a file changed under the heal and no such base is left.
 */
export async function attemptPatch(
  patch: AttemptPatch,
  realRoot: string,
  copy: TreeCopy,
): Promise<Candidate | undefined> {
  const writes: PatchFile[] = [];
  let diff = '';
  for (const f of patch.files) {
    const seen = copy.hashes.get(f.file);
    let base: Buffer | undefined;
    if (f.before && sha256(f.before) === seen) base = f.before;
    else if (seen) {
      const real = await readOptional(join(realRoot, f.file));
      if (!real || sha256(real) !== seen) return undefined;
      base = real;
    } else if (f.before) return undefined;
    diff += fileDiff(f.file, base?.toString('utf8'), f.after);
    writes.push({
      file: f.file,
      ...(seen ? { before: seen } : {}),
      after: Buffer.from(f.after).toString('base64'),
    });
  }
  const v = patch.attempt.validation;
  return {
    diff,
    files: writes.map((w) => w.file),
    fixer: patch.attempt.fixer,
    rationale: patch.attempt.rationale ?? '',
    expectation_changed: patch.attempt.expectationChanged,
    failures: [patch.failure.id],
    validation: {
      passed: false,
      tests_run: patch.failure.tests,
      still_failing: v?.stillFailing ?? patch.failure.tests.map((id) => ({ id })),
      ...(v?.command ? { command: v.command } : {}),
    },
    usage: patchUsage([patch.attempt.usage]),
    writes,
  };
}

/** Best first: passing, then the fewest failing tests; the same diff twice counts once. */
export function rankCandidates(candidates: readonly Candidate[], max = 5): Candidate[] {
  const seen = new Set<string>();
  const unique = candidates.filter((c) => {
    if (!c.diff || seen.has(c.diff)) return false;
    seen.add(c.diff);
    return true;
  });
  return unique
    .map((c, i) => ({ c, i }))
    .sort(
      (a, b) =>
        Number(b.c.validation.passed) - Number(a.c.validation.passed) ||
        a.c.validation.still_failing.length - b.c.validation.still_failing.length ||
        a.i - b.i,
    )
    .slice(0, max)
    .map(({ c }) => c);
}
