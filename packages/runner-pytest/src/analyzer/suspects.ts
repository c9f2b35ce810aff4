import { nodeKey, type CodeNode, type FailureCase } from '@suture/core/analysis';
import { PythonGraph } from './python-graph.js';
import type { PythonProject } from './python-project.js';
import { isPythonTestFile } from './test-files.js';

/**
 * The code under test each case points at (`FailureCase.suspect`), for grouping by root cause:
 * where it was raised when that is in the code under test; for a failure raised in a test (an
 * assertion, a call of the test's own body that raised), the project functions outside the tests
 * that the failing line calls, resolved through imports as the scope's walk resolves them.
 */
export async function withSuspects(
  cases: readonly FailureCase[],
  project: PythonProject,
): Promise<FailureCase[]> {
  const graph = new PythonGraph(project);
  const out: FailureCase[] = [];
  for (const c of cases) {
    const suspect = await suspectOf(graph, c.failure.location);
    out.push(suspect.length > 0 ? { ...c, suspect } : c);
  }
  return out;
}

async function suspectOf(
  graph: PythonGraph,
  at: { file: string; line?: number; symbol?: string } | undefined,
): Promise<CodeNode[]> {
  if (!at?.symbol) return [];
  if (!isPythonTestFile(at.file)) return [{ file: at.file, symbol: at.symbol }];
  if (!at.line) return [];
  const callees = await graph.onLine({ file: at.file, symbol: at.symbol }, at.line).catch(() => []);
  const seen = new Map<string, CodeNode>();
  for (const n of callees) if (!isPythonTestFile(n.file) && n.symbol) seen.set(nodeKey(n), n);
  return [...seen.values()];
}
