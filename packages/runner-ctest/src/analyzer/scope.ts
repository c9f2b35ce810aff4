import { readFile } from 'node:fs/promises';
import { join, posix } from 'node:path';
import {
  nodeKey,
  rankScope,
  walkCodeGraph,
  type CodeEdge,
  type CodeNode,
  type SummaryCache,
} from '@suture/core/analysis';
import type { Failure, ProjectInfo, ScopeEntry, ScopeInput } from '@suture/core';
import { readCompileDb } from './compile-db.js';
import { crashBacktrace, stuckBacktrace, type CrashBacktraces } from './crash-backtrace.js';
import { CppGraph } from './cpp-graph.js';
import { projectFiles } from './cpp-model.js';
import { CppProject, type DefinitionIndex } from './cpp-project.js';
import type { CppFile } from './cpp-summary.js';
import type { TestEntries } from './test-entries.js';
import { isCppTestFile } from './test-files.js';

/** How long one failure's scope may take before it is returned as incomplete. */
export const SCOPE_TIME_LIMIT_MS = 10_000;
const MAX_FAILING = 8;
const MAX_PASSING = 16;
const HEADER = /\.(h|hh|hpp|hxx)$/;

export interface ScopeContext {
  summaries: SummaryCache<CppFile>;
  definitions: DefinitionIndex;
  /** Passing tests of each test file in the latest run the analyzer read. */
  passing: (root: string, file: string) => readonly string[];
  /** The CTest entry and case of each test the analyzer has seen in a run. */
  entries: TestEntries;
  /** Backtraces of crashes already run under the debugger. */
  backtraces: CrashBacktraces;
}

/**
 * The entry of a test and the name its source gives it: a GoogleTest case without its prefix and
 * indexes (`Vals/Suite.Name/3` and `Suite/1.Name` are `Suite.Name`), a Unity function, an entry.
 */
export function caseName(id: string, entries: TestEntries): { entry: string; name: string } {
  const { entry, name } = entries.of(id);
  const dot = name.indexOf('.');
  if (dot < 0) return { entry, name };
  const suite = name
    .slice(0, dot)
    .split('/')
    .filter((part) => !/^\d+$/.test(part))
    .pop();
  // a discovered typed case is displayed `Suite.Name<int>`
  const test = name
    .slice(dot + 1)
    .replace(/\/\d+$/, '')
    .replace(/<.*>$/, '');
  return { entry, name: `${suite ?? name.slice(0, dot)}.${test}` };
}

/** Where a failing test is: its TEST body or test function, else the sources of its test program. */
async function testSeeds(
  id: string,
  project: CppProject,
  cmakeLists: readonly string[],
  entries: TestEntries,
): Promise<CodeEdge[]> {
  const { entry, name } = caseName(id, entries);
  const symbol = name.includes('.') ? `TEST:${name}` : name;
  const short = name.includes('.') ? name.split('.').pop()! : name;
  const seeds: CodeEdge[] = [];
  for (const file of await project.filesNaming(short)) {
    if (
      !project.has(file) ||
      (!symbol.startsWith('TEST:') && !isCppTestFile(file) && !project.db?.targets.get(entry)?.includes(file))
    )
      continue;
    if ((await project.index(file))?.defs.has(symbol))
      seeds.push({ to: { file, symbol }, role: 'test', reason: `the failing test ${id}` });
  }
  if (seeds.length > 0) return seeds;
  // a test program whose case is unknown (it crashed before naming one): the sources built into it
  const units = project.db?.targets.get(entry) ?? (await executableSources(project.root, entry, cmakeLists));
  return units.map((file) => ({
    to: { file },
    role: isCppTestFile(file) ? 'test' : 'source',
    reason: `a source of the test program ${entry}`,
  }));
}

/** `add_executable(<name> sources...)` in the project's CMake lists. */
async function executableSources(
  root: string,
  name: string,
  cmakeLists: readonly string[],
): Promise<string[]> {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  for (const list of cmakeLists) {
    const text = await readFile(join(root, list), 'utf8').catch(() => '');
    const m = new RegExp(`add_executable\\(\\s*${escaped}\\s+([^)]*)\\)`).exec(text);
    if (m)
      return m[1]!
        .split(/\s+/)
        .filter((s) => /\.(c|cc|cpp|cxx)$/.test(s))
        .map((s) => posix.normalize(posix.join(posix.dirname(list), s)));
  }
  return [];
}

/** Headers the tests see that declare a function of the scope: where its signature lives. */
async function declaringHeaders(
  project: CppProject,
  from: readonly string[],
  symbols: ReadonlySet<string>,
): Promise<ScopeEntry[]> {
  const out = new Map<string, ScopeEntry>();
  for (const file of from)
    for (const v of await project.visible(file)) {
      if (!HEADER.test(v.file) || out.has(v.file)) continue;
      const decls = (await project.index(v.file))?.summary.decls ?? [];
      const hit = decls.filter((d) => symbols.has(d));
      if (hit.length > 0)
        out.set(v.file, {
          file: v.file,
          symbols: [],
          role: isCppTestFile(v.file) ? 'test' : 'header',
          reasons: [`declares ${hit.slice(0, 3).join(', ')} (${v.via})`],
          depth: 1,
        });
    }
  return [...out.values()];
}

/**
 * The scope of a C/C++ failure, ranked: the failing tests' bodies (or their programs' sources)
 * and the failure's place, walked through calls into definitions anywhere in the project (through
 * quoted and angle-bracket includes followed transitively with the build's include folders,
 * function-defining macros, files named unlike their headers); ranked by the failure's place,
 * the failing line's callees and the spectrum of the failing tests against the passing ones.
 */
export async function scopeCtest(
  failure: Failure,
  info: ProjectInfo,
  ctx: ScopeContext,
): Promise<ScopeInput> {
  const deadline = Date.now() + SCOPE_TIME_LIMIT_MS;
  const [files, db] = await Promise.all([projectFiles(info.root), readCompileDb(info.root)]);
  // a vendored or generated file the build compiles is part of the project for this scope
  const sources = [...new Set([...files.sources, ...(db?.units ?? [])])];
  const project = new CppProject(info.root, sources, db, ctx.summaries, ctx.definitions);
  const graph = new CppGraph(project);
  const walk = (seeds: readonly CodeEdge[]) =>
    walkCodeGraph(seeds, {
      maxDepth: info.scopeDepth,
      expand: (n) => graph.expand(n),
      maxNodes: 2000,
      deadline,
    });

  const failing = failure.tests.slice(0, MAX_FAILING);
  const seedsOf = async (id: string): Promise<CodeEdge[]> =>
    testSeeds(id, project, files.cmakeLists, ctx.entries);
  const testSeedList = (await Promise.all(failing.map(seedsOf))).flat();
  const frames: CodeNode[] = [];
  // the line of each frame: of two functions of one name in a file, the one it stopped in
  const frameLines = new Map<string, number>();
  const addFrame = (node: CodeNode, line: number | undefined, at: CodeNode[] = frames): void => {
    at.push(node);
    if (line && !frameLines.has(nodeKey(node))) frameLines.set(nodeKey(node), line);
  };
  const loc = failure.location;
  if (loc && project.has(loc.file)) {
    const symbol = loc.symbol ? (loc.symbol.includes('.') ? `TEST:${loc.symbol}` : loc.symbol) : undefined;
    addFrame({ file: loc.file, ...(symbol ? { symbol } : {}) }, loc.line);
  }
  for (const f of failure.frames)
    if (project.has(f.file)) addFrame({ file: f.file, ...(f.symbol ? { symbol: f.symbol } : {}) }, f.line);
  // a crash that named no place in the code under test: where the debugger sees it stop; a test
  // stopped at its time limit: where the debugger saw it stuck before it was killed
  const backtrace: CodeNode[] = [];
  const debugged =
    !db || !failure.tests[0] || frames.some((f) => !isCppTestFile(f.file))
      ? undefined
      : failure.kind === 'crash'
        ? await crashBacktrace(info.root, db.buildDir, failure.tests[0], ctx.backtraces)
        : failure.kind === 'timeout'
          ? stuckBacktrace(failure.evidence, info.root, db.buildDir)
          : undefined;
  if (debugged) {
    for (const b of debugged) {
      if (!project.has(b.file)) continue;
      const defs = (await project.index(b.file))?.summary.defs ?? [];
      const def = defs
        .filter((d) => d.line <= b.line && b.line <= d.endLine)
        .sort((a, c) => c.line - a.line)[0];
      const node = { file: b.file, symbol: def?.name ?? b.fn };
      if (![...frames, ...backtrace].some((f) => nodeKey(f) === nodeKey(node)))
        addFrame(node, b.line, backtrace);
    }
    frames.unshift(...backtrace);
  }
  const frameSeeds: CodeEdge[] = frames.map((f, i) => ({
    to: f,
    role: isCppTestFile(f.file) ? 'test' : HEADER.test(f.file) ? 'header' : 'source',
    reason:
      i < backtrace.length
        ? `frame ${i + 1} of the debugger's backtrace of the ${failure.kind === 'timeout' ? 'hang' : 'crash'}`
        : i === backtrace.length
          ? `where the failure is reported (line ${loc?.line ?? '?'})`
          : `frame ${i + 1} of the trace`,
  }));
  const main = await walk([...testSeedList, ...frameSeeds]);

  const reach = async (id: string): Promise<Set<string>> =>
    new Set((await walk(await seedsOf(id))).reached.map((n) => nodeKey(n.node)));
  const failingReach = await Promise.all(failing.map(reach));
  const testFiles = [...new Set(testSeedList.map((s) => s.to.file))];
  const siblings = testFiles.flatMap((f) => ctx.passing(info.root, f)).slice(0, MAX_PASSING);
  const passingReach = await Promise.all(siblings.map(reach));

  const onFailingLine: CodeNode[] = [];
  if (loc?.line && frames[0]?.symbol && isCppTestFile(loc.file))
    onFailingLine.push(...(await graph.onLine(frames[0], loc.line)));

  const lines = new Map<string, { line: number; endLine: number }>();
  for (const n of [...main.reached.map((r) => r.node), ...frames]) {
    const where = await graph.lines(n, frameLines.get(nodeKey(n)));
    if (where) lines.set(nodeKey(n), where);
  }
  const diagnostics: ScopeEntry[] = [];
  for (const d of failure.diagnostics)
    for (const n of [d, ...d.notes])
      if (n.file && project.has(n.file))
        diagnostics.push({
          file: n.file,
          symbols: [],
          role: isCppTestFile(n.file) ? 'test' : 'source',
          reasons: [`compiler diagnostic: ${n.message.slice(0, 120)}`],
          depth: 0,
        });
  const reachedSymbols = new Set(main.reached.flatMap((n) => (n.node.symbol ? [n.node.symbol] : [])));
  const headers = await declaringHeaders(
    project,
    [...testFiles, ...frames.map((f) => f.file)],
    reachedSymbols,
  );
  const ranked = rankScope({
    reached: main.reached,
    frames,
    onFailingLine,
    failingReach,
    passingReach,
    isTestFile: isCppTestFile,
    lines: (n) => lines.get(nodeKey(n)),
    extra: [...diagnostics, ...headers],
  });
  // a GoogleTest body is named `TEST:Suite.Name` in the graph; the scope names it `Suite.Name`
  const entries = ranked.map((e) => ({
    ...e,
    symbols: e.symbols.map((s) => s.replace(/^TEST:/, '')),
    ...(e.ranking
      ? { ranking: e.ranking.map((r) => ({ ...r, symbol: r.symbol.replace(/^TEST:/, '') })) }
      : {}),
  }));
  await ctx.summaries.flush();
  const incomplete = [main.incomplete, ...project.skipped.values()].filter(Boolean).join('; ');
  return { entries, excluded: [], ...(incomplete ? { incomplete: `scope incomplete: ${incomplete}` } : {}) };
}
