import type { FailureInput, FailureKind, Location, ProjectInfo, RunResult, TestResult } from '@suture/core';
import { groupFailures, type FailureCase } from '@suture/core/analysis';
import { functionAt, type RustProject } from './project.js';

/** Frames of a Rust backtrace (`RUST_BACKTRACE=1`) inside the project, innermost first. */
export function backtraceFrames(trace: string, project: RustProject): Location[] {
  const frames: Location[] = [];
  const re = /^\s*\d+: (\S+)\n\s+at (?:\.\/)?([^\s:]+\.rs):(\d+):(\d+)$/gm;
  for (const m of trace.matchAll(re)) {
    const file = m[2]!;
    if (file.startsWith('/') || !project.byFile.has(file)) continue;
    const line = Number(m[3]);
    const symbol = functionAt(project, file, line)?.name;
    if (frames.some((f) => f.file === file && f.line === line)) continue;
    frames.push({ file, line, ...(symbol ? { symbol } : {}) });
  }
  return frames;
}

function kindOf(t: TestResult): FailureKind {
  if (t.status === 'timeout') return 'timeout';
  if (t.status === 'crashed') return 'crash';
  const text = `${t.message ?? ''}`;
  return /^assertion|assertion failed|did not panic as expected|panic did not contain expected string/.test(
    text,
  )
    ? 'assertion'
    : 'exception';
}

function fromTest(t: TestResult, project: RustProject): FailureCase {
  const d = (t.details ?? {}) as { panicFile?: string; panicLine?: number };
  const kind = kindOf(t);
  const frames = backtraceFrames(t.trace ?? '', project);
  const inProject = d.panicFile && !d.panicFile.startsWith('/') && project.byFile.has(d.panicFile);
  const file = inProject ? d.panicFile! : t.file;
  const line = inProject ? d.panicLine : t.line;
  const symbol = file && line ? functionAt(project, file, line)?.name : undefined;
  const location: Location | undefined = file
    ? { file, ...(line ? { line } : {}), ...(symbol ? { symbol } : {}) }
    : undefined;
  const title =
    kind === 'timeout'
      ? `timeout in ${t.id}`
      : `${t.id}: ${(t.message ?? 'failed').split('\n').slice(0, 3).join(' ')}`.slice(0, 200);
  return {
    failure: {
      id: '',
      kind,
      title,
      tests: [t.id],
      ...(location ? { location } : {}),
      frames: frames.filter((f) => !(f.file === location?.file && f.line === location?.line)),
      evidence: (t.trace ?? t.message ?? '').slice(0, 8000),
      repairable: true,
      details: { test: t.id, ...(d.panicFile ? { panic: `${d.panicFile}:${d.panicLine}` } : {}) },
    },
    // a panic's message without its values: `left: 8` and `left: 9` are one cause
    message: (t.message ?? t.status).split('\n')[0]!,
  };
}

/** rustc's errors are one build failure that stops the suite; failing tests are grouped by root cause. */
export function analyzeCargo(result: RunResult, _info: ProjectInfo, project: RustProject): FailureInput[] {
  const errors = result.diagnostics.filter((d) => d.severity === 'error');
  if (errors.length > 0) {
    const first = errors.find((e) => e.file && !e.file.startsWith('/')) ?? errors[0]!;
    const symbol = first.file && first.line ? functionAt(project, first.file, first.line)?.name : undefined;
    const syntax = errors.every((e) =>
      /^(?:expected|unexpected|mismatched closing|this file contains an unclosed)/.test(e.message),
    );
    const failure: FailureCase['failure'] = {
      id: '',
      kind: syntax ? 'syntax' : 'build',
      title:
        `${first.file ? `${first.file}:${first.line ?? ''}: ` : ''}${first.code ? `${first.code} ` : ''}${first.message}`.slice(
          0,
          200,
        ),
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
      repairable: !result.error && first.source !== 'cargo',
      ...(first.source === 'cargo'
        ? { reason: 'cargo could not build the project (a manifest or dependency problem, not the code)' }
        : {}),
      diagnostics: errors,
      details: {
        ...(first.code ? { code: first.code } : {}),
        ...(first.symbol ? { symbol: first.symbol } : {}),
      },
    };
    return groupFailures([{ failure, type: first.code ?? first.source, message: first.message }]);
  }
  const cases = result.tests
    .filter((t) => t.status !== 'passed' && t.status !== 'skipped')
    .map((t) => fromTest(t, project));
  return groupFailures(cases);
}
