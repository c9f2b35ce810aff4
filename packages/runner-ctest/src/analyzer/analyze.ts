import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { FailureInput, FailureKind, Location, ProjectInfo, RunResult, TestResult } from '@suture/core';
import { enclosingFunction, type createCppCache } from './cpp-model.js';

type Cache = ReturnType<typeof createCppCache>;

const fp = (parts: ReadonlyArray<string | undefined>): string =>
  createHash('sha1')
    .update(parts.map((p) => p ?? '').join('\0'))
    .digest('hex')
    .slice(0, 16);
const normalize = (m: string): string =>
  m
    .replace(/0x[0-9a-f]+/gi, '0x?')
    .replace(/:\d+(:\d+)?/g, ':?')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 300);

async function locate(
  root: string,
  file: string | undefined,
  line: number | undefined,
  cache: Cache,
): Promise<Location | undefined> {
  if (!file || file.startsWith('/')) return undefined;
  const parsed = line ? await cache.parseFile(join(root, file)) : undefined;
  const symbol = parsed && line ? enclosingFunction(parsed.tree, line) : undefined;
  return { file, ...(line ? { line } : {}), ...(symbol ? { symbol } : {}) };
}

async function fromTest(t: TestResult, project: ProjectInfo, cache: Cache): Promise<FailureInput> {
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
      cache,
    )) ?? (t.file ? { file: t.file, ...(t.line ? { line: t.line } : {}) } : undefined);
  const title =
    kind === 'timeout'
      ? `timeout in ${t.id}`
      : kind === 'crash'
        ? `${t.id} crashed${d.frame?.fn ? ` in ${d.frame.fn}` : ''}`
        : (t.message ?? 'failed').split('\n').slice(0, 2).join(' ').slice(0, 200);
  return {
    id: '',
    kind,
    title,
    tests: [t.id],
    ...(where ? { location: where } : {}),
    frames: [],
    evidence: t.trace ?? t.message ?? '',
    fingerprint: fp([kind, t.id, kind === 'crash' ? d.frame?.fn : normalize(t.message ?? '')]),
    repairable: true,
    details: { test: t.id, ...(d.gtest ? { gtest: d.gtest } : {}), ...(d.frame ? { frame: d.frame } : {}) },
  };
}

/** One build failure is one group, whatever the number of tests it stops; test failures group by cause. */
export async function analyzeCtest(
  result: RunResult,
  project: ProjectInfo,
  cache: Cache,
): Promise<FailureInput[]> {
  const failures: FailureInput[] = [];
  const errors = result.diagnostics.filter((d) => d.severity === 'error');
  if (errors.length > 0) {
    const first = errors[0]!;
    const syntax = errors.every((e) => /^expected |before .* token|stray /.test(e.message));
    const link = first.source === 'ld';
    const location = await locate(project.root, first.file, first.line, cache);
    failures.push({
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
      fingerprint: fp(['build', first.source, normalize(first.message), first.file, first.symbol]),
      repairable: !result.error,
      ...(result.error ? { reason: result.error } : {}),
      diagnostics: errors,
      details: { ...(first.symbol ? { symbol: first.symbol } : {}), ...(link ? { linker: true } : {}) },
    });
    return failures;
  }
  for (const t of result.tests)
    if (t.status !== 'passed' && t.status !== 'skipped') failures.push(await fromTest(t, project, cache));
  const groups = new Map<string, FailureInput>();
  for (const f of failures) {
    const g = groups.get(f.fingerprint);
    if (g) g.tests.push(...f.tests);
    else groups.set(f.fingerprint, f);
  }
  return [...groups.values()];
}
