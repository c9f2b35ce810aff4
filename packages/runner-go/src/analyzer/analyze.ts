import type { FailureInput, FailureKind, Location, ProjectInfo, RunResult, TestResult } from '@suture/core';
import { groupFailures, type FailureCase, type SummaryCache } from '@suture/core/analysis';
import type { GoFile } from '../go-source.js';

type Summaries = SummaryCache<GoFile>;

/** The function around a 1-based line of a project file. */
export async function functionAt(
  root: string,
  file: string,
  line: number,
  summaries: Summaries,
): Promise<string | undefined> {
  const funcs = (await summaries.read(root, file))?.summary?.funcs ?? [];
  let best: { name: string; line: number } | undefined;
  for (const f of funcs) if (f.line <= line && line <= f.endLine && (!best || f.line >= best.line)) best = f;
  return best?.name;
}

/** Project frames of a Go stack (a panic's or a goroutine dump's), innermost first. */
export function goFrames(root: string, text: string): Array<{ file: string; line: number; fn: string }> {
  const out: Array<{ file: string; line: number; fn: string }> = [];
  const lines = text.split('\n');
  for (let i = 1; i < lines.length; i++) {
    const m = /^\s+(\/\S+\.go):(\d+)(?: \+0x[0-9a-f]+)?/.exec(lines[i]!);
    if (!m || !m[1]!.startsWith(`${root}/`)) continue;
    const fn = lines[i - 1]!.replace(/\(.*$/, '')
      .split('/')
      .at(-1)!
      .replace(/^[^.]+\./, '');
    out.push({ file: m[1]!.slice(root.length + 1), line: Number(m[2]), fn });
  }
  return out;
}

async function fromTest(t: TestResult, project: ProjectInfo, summaries: Summaries): Promise<FailureCase> {
  const d = (t.details ?? {}) as { failureFile?: string; failureLine?: number; panic?: string };
  const text = `${t.message ?? ''}\n${t.trace ?? ''}`;
  const kind: FailureKind =
    t.status === 'timeout'
      ? 'timeout'
      : t.status === 'crashed'
        ? 'crash'
        : d.panic
          ? 'exception'
          : 'assertion';
  const frames = goFrames(project.root, t.trace ?? '').filter((f) => !/^(?:testing|runtime)\./.test(f.fn));
  const where = kind === 'exception' || kind === 'timeout' ? (frames[0] ?? undefined) : undefined;
  const file = where?.file ?? d.failureFile ?? t.file;
  const line = where?.line ?? d.failureLine ?? t.line;
  const symbol = file && line ? await functionAt(project.root, file, line, summaries) : undefined;
  const location: Location | undefined = file
    ? { file, ...(line ? { line } : {}), ...(symbol ? { symbol } : {}) }
    : undefined;
  const title =
    kind === 'timeout'
      ? `timeout in ${t.id}`
      : kind === 'crash'
        ? `${t.id} crashed`
        : kind === 'exception'
          ? `panic: ${d.panic}`.slice(0, 200)
          : (t.message ?? 'failed').split('\n').slice(0, 2).join(' ').slice(0, 200);
  return {
    failure: {
      id: '',
      kind,
      title,
      tests: [t.id],
      ...(location ? { location } : {}),
      frames: frames
        .slice(kind === 'exception' ? 1 : 0, 8)
        .map((f) => ({ file: f.file, line: f.line, symbol: f.fn })),
      evidence: (t.trace ?? t.message ?? '').slice(-12_000) || text,
      repairable: true,
      details: { test: t.id, ...(d.panic ? { panic: d.panic } : {}) },
    },
    ...(d.panic ? { type: 'panic' } : {}),
    message: (d.panic ?? t.message ?? t.status).replace(/^\s*\S+\.go:\d+: /, ''),
  };
}

/**
 * Build and vet errors are one group, whatever the number of packages they stop; failing tests
 * are grouped by root cause with core's one policy. A parent test that failed only because its
 * subtests did is explained by them.
 */
export async function analyzeGo(
  result: RunResult,
  project: ProjectInfo,
  summaries: Summaries,
): Promise<FailureInput[]> {
  const cases: FailureCase[] = [];
  const errors = result.diagnostics.filter((d) => d.severity === 'error');
  if (errors.length > 0) {
    const first = errors[0]!;
    const symbol =
      first.file && first.line
        ? await functionAt(project.root, first.file, first.line, summaries)
        : undefined;
    cases.push({
      failure: {
        id: '',
        kind: /^syntax error/.test(first.message) ? 'syntax' : 'build',
        title: `${first.file ? `${first.file}:${first.line ?? ''}: ` : ''}${first.message}`.slice(0, 200),
        tests: [],
        blocksAll: true,
        ...(first.file
          ? {
              location: {
                file: first.file,
                ...(first.line ? { line: first.line } : {}),
                ...(symbol ? { symbol } : {}),
              },
            }
          : {}),
        frames: [],
        evidence: errors
          .map((e) => e.raw ?? e.message)
          .join('\n')
          .slice(0, 20_000),
        repairable: true,
        diagnostics: errors,
        details: { ...(first.symbol ? { symbol: first.symbol } : {}), source: first.source },
      },
      type: first.source,
      message: `${first.message} ${first.symbol ?? ''}`,
    });
  }
  const failed = result.tests.filter((t) => t.status !== 'passed' && t.status !== 'skipped');
  const ids = new Set(failed.map((t) => t.id));
  for (const t of failed) {
    const explained =
      (t.details as { subtestsFailed?: boolean } | undefined)?.subtestsFailed &&
      [...ids].some((i) => i.startsWith(`${t.id}/`));
    if (!explained) cases.push(await fromTest(t, project, summaries));
  }
  const groups = groupFailures(cases);
  // a parent explained by its subtests is in its subtests' group
  for (const t of failed)
    if (!groups.some((g) => g.tests.includes(t.id)))
      groups.find((g) => g.tests.some((i) => i.startsWith(`${t.id}/`)))?.tests.push(t.id);
  return groups;
}
