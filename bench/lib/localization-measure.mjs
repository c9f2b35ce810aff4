// One mutant through the real runner and the real analyzer: the groups it makes, where the buggy
// function ranks in each group's scope, what the source slices send, and the analysis time.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FailureSchema, RunResultSchema, ScopeSchema } from '../../packages/core/dist/index.js';
import { sourceSlices } from '../../packages/core/dist/internal.js';
import { silentLogger } from '../../packages/core/dist/testing/index.js';

export const TOKEN_BUDGET = 12_000;

export async function runOnce(runner, root, timeoutMs = 900_000) {
  const workDir = mkdtempSync(join(tmpdir(), 'suture-loc-work-'));
  try {
    return RunResultSchema.parse(
      await runner.run({
        root,
        workDir,
        timeoutMs,
        signal: new AbortController().signal,
        logger: silentLogger,
      }),
    );
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
}

const bad = (t) => t.status !== 'passed' && t.status !== 'skipped';

/** Ids of the tests that fail (or the run's diagnostics) with nothing changed: not the mutant's. */
export function baselineFailures(result) {
  return new Set(result.tests.filter(bad).map((t) => t.id));
}

function rankOf(scope, file, symbol) {
  const ranked = scope.entries
    .flatMap((e) => (e.ranking ?? []).map((r) => ({ file: e.file, ...r })))
    .sort((a, b) => b.score - a.score);
  const at = ranked.findIndex((r) => r.file === file && r.symbol === symbol);
  return at < 0 ? Infinity : at + 1;
}

const timed = async (fn) => {
  const t = performance.now();
  const value = await fn();
  return { value, ms: performance.now() - t };
};

/**
 * Applies a mutant, runs the tests, and measures every group of newly failing tests. Returns
 * undefined when no test fails (the mutant survived), else one row per group.
 */
export async function measureMutant({ runner, root, mutant, baseline, scopeDepth = 3 }) {
  const abs = join(root, mutant.file);
  const original = readFileSync(abs, 'utf8');
  const lines = original.split('\n');
  lines[mutant.line - 1] = mutant.after;
  writeFileSync(abs, lines.join('\n'));
  try {
    const result = await runOnce(runner, root);
    const failing = result.tests.filter((t) => bad(t) && !baseline.has(t.id));
    const buildBroken = result.diagnostics.some((d) => d.severity === 'error');
    if (failing.length === 0 && !buildBroken) return { survived: true };
    const info = { name: 'bench', root, scopeDepth, logger: silentLogger };
    // cold: a fresh analyzer (its caches empty, a persisted cache aside); warm: the same one again
    const analyzer = runner.analyzer();
    const cold = await timed(() => analyzer.analyze(result, info));
    const groups = cold.value
      .map((g) => FailureSchema.parse({ ...g, id: g.id || g.fingerprint }))
      // a group of no test is a build or a suite that failed to run, which the baseline did not have
      .filter((g) => g.blocksAll || g.tests.length === 0 || g.tests.some((id) => !baseline.has(id)));
    const rows = [];
    for (const g of groups) {
      const scoped = await timed(() => analyzer.scope(g, info));
      const warmAnalyze = await timed(() => analyzer.analyze(result, info));
      const warmScope = await timed(() => analyzer.scope(g, info));
      const scope = ScopeSchema.parse(scoped.value);
      const slices = await sourceSlices(root, g, scope, TOKEN_BUDGET);
      const chars = slices.reduce((n, s) => n + s.text.length, 0);
      const sent = slices.some(
        (s) => s.file === mutant.file && s.startLine <= mutant.line && mutant.line <= s.endLine,
      );
      const inScope = scope.entries.some(
        (e) =>
          e.file === mutant.file &&
          (e.symbols.includes(mutant.symbol) || (e.ranking ?? []).some((r) => r.symbol === mutant.symbol)),
      );
      rows.push({
        tests: g.tests.length,
        kind: g.kind,
        inScope,
        fileInScope: scope.entries.some((e) => e.file === mutant.file),
        rank: rankOf(scope, mutant.file, mutant.symbol),
        sent,
        chars,
        coldMs: cold.ms / groups.length + scoped.ms,
        warmMs: warmAnalyze.ms / groups.length + warmScope.ms,
        incomplete: scope.incomplete,
      });
    }
    return { survived: false, groups: rows };
  } finally {
    writeFileSync(abs, original);
  }
}
