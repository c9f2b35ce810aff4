import {
  nodeKey,
  rankScope,
  walkCodeGraph,
  type CodeEdge,
  type CodeNode,
  type SummaryCache,
} from '@suture/core/analysis';
import type { Failure, ProjectInfo, ScopeInput } from '@suture/core';
import { parseId } from '../ids.js';
import { JsGraph, TEST_SYMBOL } from './js-graph.js';
import { spectrumReach, testReach, type TestReach } from './js-spectrum.js';
import { JsProject } from './js-project.js';
import type { JsModule } from './js-summary.js';
import { readModulePaths } from './module-paths.js';
import { isScriptTestFile } from './test-files.js';

/** How long one failure's scope may take before it is returned as incomplete. */
export const SCOPE_TIME_LIMIT_MS = 10_000;
const MAX_FAILING = 8;
const MAX_PASSING = 16;

export interface ScopeContext {
  summaries: SummaryCache<JsModule>;
  /** Passing tests of each test file in the latest run the analyzer read. */
  passing: (root: string, file: string) => readonly string[];
}

/** A test's callback, named by its path of titles, or its file when no callback matches. */
async function testSeed(id: string, title: string | undefined, project: JsProject): Promise<CodeEdge> {
  const { file, fullName, occurrence } = parseId(id);
  const test = await project.test(file, fullName, title, occurrence);
  return {
    to: { file, symbol: test ? test.path : `${TEST_SYMBOL}${title ?? fullName}` },
    role: 'test',
    reason: `the failing test "${fullName}"`,
  };
}

/**
 * The scope of a JS/TS failure, ranked: the failing tests' callbacks and the stack's frames,
 * walked through imports and requires, `export *` and `export { x } from`, CommonJS exports,
 * tsconfig `paths` and Jest's `moduleNameMapper`; ranked by the frames, the failing `expect`
 * line's callees and the spectrum of the failing tests against the passing ones of the same files.
 */
export async function scopeJest(failure: Failure, info: ProjectInfo, ctx: ScopeContext): Promise<ScopeInput> {
  const deadline = Date.now() + SCOPE_TIME_LIMIT_MS;
  const project = new JsProject(info.root, ctx.summaries, await readModulePaths(info.root));
  const graph = new JsGraph(project);
  const walk = (seeds: readonly CodeEdge[]) =>
    walkCodeGraph(seeds, {
      maxDepth: info.scopeDepth,
      expand: (n) => graph.expand(n),
      maxNodes: 2000,
      deadline,
    });
  const failing = failure.tests.slice(0, MAX_FAILING);
  const title = failure.details.title as string | undefined;
  const seeds = await Promise.all(failing.map((id, i) => testSeed(id, i === 0 ? title : undefined, project)));
  const frames: CodeNode[] = [...(failure.location ? [failure.location] : []), ...failure.frames].map(
    (f) => ({
      file: f.file,
      ...(f.symbol ? { symbol: f.symbol } : {}),
    }),
  );
  // a suite that failed to load a source: the source first, the test file that imported it after
  const suite = failure.details.suite as string | undefined;
  if (suite && !frames.some((f) => f.file === suite)) frames.push({ file: suite });
  const frameSeeds: CodeEdge[] = frames.map((f, i) => ({
    to: f,
    role: isScriptTestFile(f.file) ? 'test' : 'source',
    reason: i === 0 ? 'where the failure was raised' : `frame ${i + 1} of the stack`,
  }));
  const main = await walk([...seeds, ...frameSeeds]);

  const reach = async (seed: CodeEdge): Promise<TestReach> =>
    testReach((await walk([seed])).reached, graph.innerCalls);
  const files = [...new Set(failing.map((id) => parseId(id).file))];
  const siblings = files.flatMap((f) => ctx.passing(info.root, f)).slice(0, MAX_PASSING);
  const { failing: failingReach, passing: passingReach } = spectrumReach(
    await Promise.all(seeds.map(reach)),
    await Promise.all(siblings.map(async (id) => reach(await testSeed(id, undefined, project)))),
  );

  const onFailingLine: CodeNode[] = [];
  for (const f of [...(failure.location ? [failure.location] : []), ...failure.frames])
    if (f.line && f.symbol && isScriptTestFile(f.file))
      onFailingLine.push(...(await graph.onLine({ file: f.file, symbol: f.symbol }, f.line)));

  const lines = new Map<string, { line: number; endLine: number }>();
  for (const n of [...main.reached.map((r) => r.node), ...frames]) {
    const where = await graph.lines(n);
    if (where) lines.set(nodeKey(n), where);
  }
  const ranked = rankScope({
    reached: main.reached,
    frames,
    onFailingLine,
    failingReach,
    passingReach,
    isTestFile: isScriptTestFile,
    lines: (n) => lines.get(nodeKey(n)),
  });
  const entries = ranked.map((e) => ({
    ...e,
    symbols: e.symbols.map((s) => s.replace(TEST_SYMBOL, '')),
    ...(e.ranking
      ? { ranking: e.ranking.map((r) => ({ ...r, symbol: r.symbol.replace(TEST_SYMBOL, '') })) }
      : {}),
  }));
  await ctx.summaries.flush();
  const incomplete = [main.incomplete, ...project.skipped.values()].filter(Boolean).join('; ');
  return { entries, excluded: [], ...(incomplete ? { incomplete: `scope incomplete: ${incomplete}` } : {}) };
}
