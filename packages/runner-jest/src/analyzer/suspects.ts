import type { ProjectInfo } from '@suture/core';
import { nodeKey, type CodeNode, type FailureCase, type SummaryCache } from '@suture/core/analysis';
import { JsGraph } from './js-graph.js';
import { JsProject } from './js-project.js';
import type { JsModule } from './js-summary.js';
import { readModulePaths } from './module-paths.js';
import { isScriptTestFile } from './test-files.js';

/**
 * The code under test each case points at (`FailureCase.suspect`), for grouping by root cause:
 * where it was raised when that is in the code under test; for a failure raised in a test (a
 * failed `expect`, a call of the test's own body that threw), the functions outside the tests
 * that the failing line calls, resolved through imports and re-exports as the scope's walk does.
 */
export async function withSuspects(
  cases: readonly FailureCase[],
  info: ProjectInfo,
  summaries: SummaryCache<JsModule>,
): Promise<FailureCase[]> {
  if (!cases.some((c) => c.failure.kind === 'assertion' || c.failure.kind === 'exception')) return [...cases];
  const graph = new JsGraph(new JsProject(info.root, summaries, await readModulePaths(info.root)));
  const out: FailureCase[] = [];
  for (const c of cases) {
    const suspect = await suspectOf(graph, c.failure.location);
    out.push(suspect.length > 0 ? { ...c, suspect } : c);
  }
  return out;
}

async function suspectOf(
  graph: JsGraph,
  at: { file: string; line?: number; symbol?: string } | undefined,
): Promise<CodeNode[]> {
  if (!at?.symbol) return [];
  if (!isScriptTestFile(at.file)) return [{ file: at.file, symbol: at.symbol }];
  if (!at.line) return [];
  const callees = await graph.onLine({ file: at.file, symbol: at.symbol }, at.line).catch(() => []);
  const seen = new Map<string, CodeNode>();
  for (const n of callees) if (!isScriptTestFile(n.file) && n.symbol) seen.set(nodeKey(n), n);
  return [...seen.values()];
}
