import type { FailureInput, FailureKind, Location, ProjectInfo, RunResult, TestResult } from '@suture/core';
import { groupFailures, type FailureCase, type SummaryCache } from '@suture/core/analysis';
import type { CrashBacktraces } from './crash-backtrace.js';
import { crashEvidence, MAX_DEBUGGED } from './crash-evidence.js';
import type { DefinitionIndex } from './cpp-project.js';
import type { CppFile } from './cpp-summary.js';
import { withSuspects } from './suspects.js';

type Summaries = SummaryCache<CppFile>;

/** The function around a 1-based line: the innermost definition (`Suite.Name` for a TEST body). */
export async function functionAt(
  root: string,
  file: string,
  line: number,
  summaries: Summaries,
): Promise<string | undefined> {
  const defs = (await summaries.read(root, file))?.summary?.defs ?? [];
  let best: { name: string; line: number } | undefined;
  for (const d of defs) if (d.line <= line && line <= d.endLine && (!best || d.line >= best.line)) best = d;
  return best?.name.replace(/^TEST:/, '');
}

async function locate(
  root: string,
  file: string | undefined,
  line: number | undefined,
  summaries: Summaries,
): Promise<Location | undefined> {
  if (!file || file.startsWith('/')) return undefined;
  const symbol = line ? await functionAt(root, file, line, summaries) : undefined;
  return { file, ...(line ? { line } : {}), ...(symbol ? { symbol } : {}) };
}

/** What a crash's evidence needs: the debugger's memo, and whether this crash may be run under it. */
interface CrashContext {
  backtraces: CrashBacktraces;
  debug: boolean;
}

async function fromTest(
  t: TestResult,
  project: ProjectInfo,
  summaries: Summaries,
  crash: CrashContext,
): Promise<FailureCase> {
  const d = (t.details ?? {}) as {
    failureFile?: string;
    failureLine?: number;
    frame?: { file: string; line: number; fn?: string };
    gtest?: string;
  };
  const text = `${t.message ?? ''}\n${t.trace ?? ''}`;
  const kind: FailureKind =
    t.status === 'timeout'
      ? 'timeout'
      : t.status === 'crashed'
        ? 'crash'
        : /C\+\+ exception|terminate called|uncaught exception/i.test(text)
          ? 'exception'
          : 'assertion';
  const where =
    (await locate(
      project.root,
      d.frame?.file ?? d.failureFile ?? t.file,
      d.frame?.line ?? d.failureLine ?? t.line,
      summaries,
    )) ?? (t.file ? { file: t.file, ...(t.line ? { line: t.line } : {}) } : undefined);
  // a place without a function of its own (a TEST line that did not parse) is still this test's
  if (where && !where.symbol && d.gtest) where.symbol = d.gtest.replace(/^[^/.]+\//, '').replace(/\/.*$/, '');
  const title =
    kind === 'timeout'
      ? `timeout in ${t.id}`
      : kind === 'crash'
        ? `${t.id} crashed${d.frame?.fn ? ` in ${d.frame.fn}` : ''}`
        : (t.message ?? 'failed').split('\n').slice(0, 2).join(' ').slice(0, 200);
  const failure: FailureCase['failure'] = {
    id: '',
    kind,
    title,
    tests: [t.id],
    ...(where ? { location: where } : {}),
    frames: [],
    // a crash's transcript is banners: the signal, the running case and a backtrace say what broke
    evidence:
      kind === 'crash'
        ? await crashEvidence(t, project.root, crash.backtraces, crash.debug)
        : (t.trace ?? t.message ?? ''),
    repairable: true,
    details: { test: t.id, ...(d.gtest ? { gtest: d.gtest } : {}), ...(d.frame ? { frame: d.frame } : {}) },
  };
  // the case a whole binary was running is named after the cause; it is not part of it
  return { failure, message: (t.message ?? t.status).replace(/ \(in [^()]+\)$/, '') };
}

/**
 * A build failure is one group, whatever the number of tests it stops; test failures are grouped
 * by root cause with core's one policy.
 */
export async function analyzeCtest(
  result: RunResult,
  project: ProjectInfo,
  summaries: Summaries,
  backtraces: CrashBacktraces,
  definitions: DefinitionIndex,
): Promise<FailureInput[]> {
  const errors = result.diagnostics.filter((d) => d.severity === 'error');
  if (errors.length > 0) {
    const first = errors[0]!;
    const syntax = errors.every((e) => /^expected |before .* token|stray /.test(e.message));
    const link = first.source === 'ld';
    const location = await locate(project.root, first.file, first.line, summaries);
    const failure: FailureCase['failure'] = {
      id: '',
      kind: first.source === 'cmake' ? 'build' : syntax ? 'syntax' : 'build',
      title: link
        ? first.message
        : `${first.file ? `${first.file}:${first.line ?? ''}: ` : ''}${first.message}`.slice(0, 200),
      tests: [],
      blocksAll: true,
      ...(location ? { location } : {}),
      frames: [],
      evidence: errors
        .map((e) => [e.raw ?? e.message, ...e.notes.map((n) => `  note: ${n.message}`)].join('\n'))
        .join('\n')
        .slice(0, 20_000),
      repairable: !result.error,
      ...(result.error ? { reason: result.error } : {}),
      diagnostics: errors,
      details: { ...(first.symbol ? { symbol: first.symbol } : {}), ...(link ? { linker: true } : {}) },
    };
    // the symbol a linker misses is what the error is about, whatever the quotes around it
    return groupFailures([
      { failure, type: first.source, message: `${first.message} ${first.symbol ?? ''}` },
    ]);
  }
  const cases: FailureCase[] = [];
  let crashes = 0;
  for (const t of result.tests)
    if (t.status !== 'passed' && t.status !== 'skipped') {
      const debug = t.status === 'crashed' && crashes++ < MAX_DEBUGGED;
      cases.push(await fromTest(t, project, summaries, { backtraces, debug }));
    }
  return groupFailures(await withSuspects(cases, project, summaries, definitions));
}
