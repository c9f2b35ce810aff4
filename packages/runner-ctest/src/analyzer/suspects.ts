import type { ProjectInfo } from '@suture/core';
import { nodeKey, type CodeNode, type FailureCase, type SummaryCache } from '@suture/core/analysis';
import { readCompileDb } from './compile-db.js';
import { CppGraph } from './cpp-graph.js';
import { projectFiles } from './cpp-model.js';
import { CppProject, type DefinitionIndex } from './cpp-project.js';
import type { CppFile } from './cpp-summary.js';
import { isCppTestFile } from './test-files.js';

/**
 * The code under test each case points at (`FailureCase.suspect`), for grouping by root cause:
 * where it was reported when that is in the code under test; for a failure reported in a test (a
 * failed `EXPECT_*`/`ASSERT_*`, an exception out of a test body), the project's functions outside
 * the tests that the failing line calls, resolved by the project's own definitions as the scope's
 * walk resolves them.
 */
export async function withSuspects(
  cases: readonly FailureCase[],
  info: ProjectInfo,
  summaries: SummaryCache<CppFile>,
  definitions: DefinitionIndex,
): Promise<FailureCase[]> {
  if (!cases.some((c) => c.failure.kind === 'assertion' || c.failure.kind === 'exception')) return [...cases];
  const [files, db] = await Promise.all([projectFiles(info.root), readCompileDb(info.root)]);
  const sources = [...new Set([...files.sources, ...(db?.units ?? [])])];
  const project = new CppProject(info.root, sources, db, summaries, definitions);
  const graph = new CppGraph(project);
  const out: FailureCase[] = [];
  for (const c of cases) {
    const suspect = await suspectOf(graph, project, c.failure.location);
    out.push(suspect.length > 0 ? { ...c, suspect } : c);
  }
  return out;
}

async function suspectOf(
  graph: CppGraph,
  project: CppProject,
  at: { file: string; line?: number; symbol?: string } | undefined,
): Promise<CodeNode[]> {
  if (!at?.symbol || !project.has(at.file)) return [];
  if (!isCppTestFile(at.file)) return [{ file: at.file, symbol: at.symbol }];
  if (!at.line) return [];
  // a TEST body is named `Suite.Name` in a location and `TEST:Suite.Name` in the graph
  const symbol = at.symbol.includes('.') ? `TEST:${at.symbol}` : at.symbol;
  const callees = await graph.onLine({ file: at.file, symbol }, at.line).catch(() => []);
  const seen = new Map<string, CodeNode>();
  for (const n of callees) if (!isCppTestFile(n.file) && n.symbol) seen.set(nodeKey(n), n);
  return [...seen.values()];
}
