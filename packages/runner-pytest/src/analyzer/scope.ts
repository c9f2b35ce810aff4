import { posix } from 'node:path';
import {
  nodeKey,
  rankScope,
  walkCodeGraph,
  type CodeEdge,
  type CodeNode,
  type SummaryCache,
} from '@suture/core/analysis';
import type { Failure, ProjectInfo, ScopeInput } from '@suture/core';
import { symbolAt, testSymbol } from './analyze.js';
import { DOCTEST, PythonGraph } from './python-graph.js';
import { PythonProject } from './python-project.js';
import type { PyModule } from './python-summary.js';
import { isPythonTestFile } from './test-files.js';
import type { Trace, TraceOptions, TracedRun } from './trace.js';
import type { TraceMemo } from './trace-memo.js';
import { traceRequest, type TestsSeen } from './trace-plan.js';

/** How long one failure's scope may take before it is returned as incomplete. */
export const SCOPE_TIME_LIMIT_MS = 10_000;
/** How long the run that traces the tests may take; past it the ranking goes without. */
export const TRACE_TIME_LIMIT_MS = 30_000;
/** Failing tests walked one by one for the spectrum, and passing tests of the same files. */
const MAX_FAILING = 8;
const MAX_PASSING = 16;

export interface ScopeContext extends TestsSeen {
  summaries: SummaryCache<PyModule>;
  /** Folders besides the root that imports resolve from. */
  paths: readonly string[];
  /** How to run the tests under a tracer; undefined: no tracing. */
  trace?: TraceOptions;
  /** Traces already taken, reused while the files they ran are unchanged. */
  traces: TraceMemo;
}

/**
 * What each traced test ran, as `nodeKey`s of project functions, split by outcome. A test whose
 * subtests were traced counts as its subtests, unless it failed outside all of them.
 */
async function executedSets(
  project: PythonProject,
  trace: Trace,
): Promise<{ failing: Array<Set<string>>; passing: Array<Set<string>> }> {
  const out = { failing: [] as Array<Set<string>>, passing: [] as Array<Set<string>> };
  const symbols = new Map<string, Promise<string | undefined>>();
  const keysOf = async (run: TracedRun): Promise<Set<string>> => {
    const keys = new Set<string>();
    for (const [file, line] of run.entered) {
      const at = `${file}:${line}`;
      if (!symbols.has(at)) symbols.set(at, symbolAt(project, file, line));
      const symbol = await symbols.get(at);
      if (symbol) keys.add(nodeKey({ file, symbol }));
    }
    // the class an inherited method ran on: its own file holds its attributes and overrides
    for (const [file, cls] of run.receivers ?? [])
      if ((await project.index(file))?.defs.get(cls)?.kind === 'class')
        keys.add(nodeKey({ file, symbol: cls }));
    return keys;
  };
  for (const t of trace.values()) {
    const failedOutside = !t.passed && t.subtests.every((s) => s.passed);
    for (const run of t.subtests.length > 0 && !failedOutside ? t.subtests : [t])
      (run.passed ? out.passing : out.failing).push(await keysOf(run));
  }
  return out;
}

/** The seed of a test id: a test function, a doctest of a module's function, or a document's doctests. */
async function testSeed(id: string, project: PythonProject): Promise<CodeEdge> {
  const { file, symbol } = testSymbol(id);
  const role = isPythonTestFile(file) ? 'test' : 'source';
  if (!file.endsWith('.py'))
    return { to: { file, symbol: DOCTEST }, role, reason: `the failing doctest ${id}` };
  const index = await project.index(file);
  const named = id.split('::')[1] ?? '';
  // a doctest item is named by the dotted path of what it documents: `pkg.mod.Cls.meth`
  if (index && id.split('::').length === 2 && named.includes('.') && !index.defs.has(named)) {
    const parts = named.split('.');
    for (const n of [2, 1]) {
      const documented = parts.slice(-n).join('.');
      if (index.defs.get(documented)?.doctest)
        return {
          to: { file, symbol: `${DOCTEST}:${documented}` },
          role,
          reason: `the failing doctest ${id}`,
        };
    }
    if (index.module.doctest)
      return { to: { file, symbol: DOCTEST }, role, reason: `the failing doctest ${id}` };
  }
  return { to: { file, ...(symbol ? { symbol } : {}) }, role: 'test', reason: `the failing test ${id}` };
}

/** Fixtures a test asks for by parameter, found in its module and in conftest.py files up the tree. */
async function fixtureSeeds(project: PythonProject, testFile: string, symbol: string): Promise<CodeEdge[]> {
  const params = (await project.index(testFile))?.defs.get(symbol)?.params ?? [];
  const edges: CodeEdge[] = [];
  for (const param of params) {
    for (const dir of [null, ...parentDirs(testFile)]) {
      const file = dir === null ? testFile : posix.join(dir, 'conftest.py');
      const def = (await project.index(file))?.defs.get(param);
      if (def?.decorators.some((d) => /(^|\.)fixture$/.test(d))) {
        edges.push({
          to: { file, symbol: param },
          role: 'fixture',
          reason: `fixture "${param}" used by ${symbol}`,
        });
        break;
      }
    }
  }
  return edges;
}

function nodeOfKey(key: string): CodeNode {
  const [file, symbol] = key.split('\0') as [string, string];
  return { file, ...(symbol ? { symbol } : {}) };
}

function parentDirs(file: string): string[] {
  const dirs: string[] = [];
  for (let dir = posix.dirname(file); ; dir = posix.dirname(dir)) {
    dirs.push(dir === '.' ? '' : dir);
    if (dir === '.' || dir === '/' || dir === '') break;
  }
  return dirs;
}

async function seedsOf(id: string, project: PythonProject): Promise<CodeEdge[]> {
  const seed = await testSeed(id, project);
  const symbol = seed.to.symbol;
  return symbol && !symbol.startsWith(DOCTEST)
    ? [seed, ...(await fixtureSeeds(project, seed.to.file, symbol))]
    : [seed];
}

/**
 * The scope of a Python failure, ranked: the failing tests (their fixtures, the function a doctest
 * documents) and the failure's frames, walked through calls, imports, re-exports, star imports,
 * aliases and decorators; then ranked by the frames, the failing line's callees and the spectrum
 * of the failing tests against the passing tests of the same files.
 */
export async function scopePytest(
  failure: Failure,
  info: ProjectInfo,
  ctx: ScopeContext,
): Promise<ScopeInput> {
  const deadline = Date.now() + SCOPE_TIME_LIMIT_MS;
  const project = new PythonProject(info.root, ctx.summaries, ctx.paths);
  const graph = new PythonGraph(project);
  const walk = (seeds: readonly CodeEdge[]) =>
    walkCodeGraph(seeds, {
      maxDepth: info.scopeDepth,
      expand: (node) => graph.expand(node),
      maxNodes: 2000,
      deadline,
    });
  const failing = failure.tests.slice(0, MAX_FAILING);
  const testSeeds = (await Promise.all(failing.map((id) => seedsOf(id, project)))).flat();
  // `<frozen os>`, `<string>`: a place with no file is no scope entry, whoever located it there
  const frames: CodeNode[] = [...(failure.location ? [failure.location] : []), ...failure.frames]
    .filter((f) => !f.file.startsWith('<'))
    .map((f) => ({
      file: f.file,
      ...(f.symbol ? { symbol: f.symbol } : {}),
    }));
  const frameSeeds: CodeEdge[] = frames.map((f, i) => ({
    to: f,
    role: isPythonTestFile(f.file) ? 'test' : 'source',
    reason: i === 0 ? 'where the failure was raised' : `frame ${i + 1} of the traceback`,
  }));
  const main = await walk([...testSeeds, ...frameSeeds]);

  const reach = async (id: string): Promise<Set<string>> =>
    new Set((await walk(await seedsOf(id, project))).reached.map((n) => nodeKey(n.node)));
  const failingReach = await Promise.all(failing.map(reach));
  const files = [...new Set(failing.map((id) => testSymbol(id).file))];
  const siblings = files.flatMap((f) => ctx.passing(info.root, f)).slice(0, MAX_PASSING);
  const passingReach = await Promise.all(siblings.map(reach));

  // the callees of the lines that failed in the tests: the assertion, the call that raised
  const onFailingLine: CodeNode[] = [];
  for (const f of [...(failure.location ? [failure.location] : []), ...failure.frames])
    if (f.line && f.symbol && isPythonTestFile(f.file))
      onFailingLine.push(...(await graph.onLine({ file: f.file, symbol: f.symbol }, f.line)));

  let executed: { failing: Array<Set<string>>; passing: Array<Set<string>> } | undefined;
  if (ctx.trace) {
    const request = traceRequest(failing, info.root, ctx, TRACE_TIME_LIMIT_MS);
    const trace =
      request.failing.length > 0
        ? await ctx.traces.take(project, request, ctx.trace, TRACE_TIME_LIMIT_MS)
        : undefined;
    if (trace && failing.some((id) => trace.has(id))) executed = await executedSets(project, trace);
  }

  const lines = new Map<string, { line: number; endLine: number }>();
  for (const n of main.reached) {
    const where = await graph.lines(n.node);
    if (where) lines.set(nodeKey(n.node), where);
  }
  const others = [...frames, ...(executed?.failing ?? []).flatMap((run) => [...run].map(nodeOfKey))];
  for (const f of others) {
    const where = await graph.lines(f);
    if (where) lines.set(nodeKey(f), where);
  }
  const entries = rankScope({
    reached: main.reached.map((n) =>
      n.node.symbol?.startsWith(DOCTEST) ? { ...n, node: { file: n.node.file } } : n,
    ),
    frames,
    onFailingLine,
    failingReach,
    passingReach,
    ...(executed ? { executed } : {}),
    isTestFile: isPythonTestFile,
    lines: (n) => lines.get(nodeKey(n)),
    maxDepth: info.scopeDepth,
  });
  await ctx.summaries.flush();
  const incomplete = [main.incomplete, ...project.skipped.values()].filter(Boolean).join('; ');
  return { entries, excluded: [], ...(incomplete ? { incomplete: `scope incomplete: ${incomplete}` } : {}) };
}
