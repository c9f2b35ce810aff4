import { createHash } from 'node:crypto';
import { isAbsolute, join, relative } from 'node:path';
import type { Diagnostic, FailureInput, Location, ProjectInfo, RunResult, TestResult } from '@suture/core';
import type { ExceptionInfo } from '../events.js';
import { exceptionFromText, kindOf, normalizeMessage } from './classify.js';
import { enclosingSymbol, type createPythonCache } from './python-model.js';

type Cache = ReturnType<typeof createPythonCache>;

const FOREIGN = /(^|\/)(site-packages|dist-packages|\.venv|venv|lib\/python3[\d.]*|_pytest|pluggy)\//;

function projectPath(root: string, file: string): string | undefined {
  const rel = isAbsolute(file) ? relative(root, file) : file;
  if (rel.startsWith('..') || isAbsolute(rel) || FOREIGN.test(rel) || FOREIGN.test(file)) return undefined;
  return rel.split('\\').join('/');
}

/** Project frames of a traceback, innermost first, each with its enclosing function. */
async function projectFrames(
  root: string,
  frames: ExceptionInfo['frames'],
  cache: Cache,
): Promise<Location[]> {
  const out: Location[] = [];
  for (const f of [...frames].reverse()) {
    const file = projectPath(root, f.file);
    if (!file) continue;
    const parsed = await cache.parseFile(join(root, file));
    const symbol = parsed ? enclosingSymbol(parsed.tree, f.line) : undefined;
    out.push({
      file,
      line: f.line,
      ...(symbol ? { symbol } : f.function && f.function !== '<module>' ? { symbol: f.function } : {}),
    });
  }
  return out;
}

/** `File "x.py", line N` and `x.py:N:` frames from a text traceback (collection errors). */
function textFrames(text: string): ExceptionInfo['frames'] {
  // Both forms, in the order they appear: the last one is the innermost.
  const hits: Array<{ at: number; frame: ExceptionInfo['frames'][number] }> = [];
  for (const m of text.matchAll(/File "([^"]+)", line (\d+)(?:, in (\S+))?/g))
    hits.push({ at: m.index, frame: { file: m[1]!, line: Number(m[2]), function: m[3] ?? '' } });
  for (const m of text.matchAll(/^([^\s:]+\.py):(\d+):(?: in (\S+))?/gm))
    hits.push({ at: m.index, frame: { file: m[1]!, line: Number(m[2]), function: m[3] ?? '' } });
  return hits.sort((a, b) => a.at - b.at).map((h) => h.frame);
}

function fingerprint(parts: readonly (string | undefined)[]): string {
  return createHash('sha1')
    .update(parts.map((p) => p ?? '').join('\0'))
    .digest('hex')
    .slice(0, 16);
}

function evidenceOf(message: string, trace: string | undefined): string {
  return trace && trace.includes(message.split('\n')[0] ?? '')
    ? trace
    : [message, trace].filter(Boolean).join('\n\n');
}

/** Module path of a test id: `tests/test_x.py::TestA::test_b[1]` -> test function `TestA.test_b`. */
export function testSymbol(id: string): { file: string; symbol?: string } {
  const [file, ...rest] = id.split('::');
  const last = rest.map((p) => p.replace(/\[.*$/, ''));
  return { file: file!, ...(last.length > 0 ? { symbol: last.slice(-2).join('.') } : {}) };
}

async function fromTest(test: TestResult, project: ProjectInfo, cache: Cache): Promise<FailureInput> {
  const exc = (test.details?.exception as ExceptionInfo | undefined) ?? undefined;
  const fallback = exceptionFromText(test.trace ?? '');
  const type = exc?.type ?? fallback.type;
  const message = exc?.message ?? fallback.message ?? test.message ?? '';
  const frames = await projectFrames(project.root, exc?.frames ?? textFrames(test.trace ?? ''), cache);
  const kind = test.status === 'timeout' ? 'timeout' : kindOf(type, `${message}\n${test.trace ?? ''}`);
  const own = testSymbol(test.id);
  const location = frames[0] ?? {
    file: own.file,
    ...(test.line ? { line: test.line } : {}),
    ...(own.symbol ? { symbol: own.symbol } : {}),
  };
  const title =
    kind === 'timeout'
      ? `timeout in ${test.id}`
      : `${type ? `${type}: ` : ''}${message.split('\n')[0]}`.slice(0, 200);
  const repairable = kind !== 'infra';
  return {
    id: '',
    kind,
    title,
    tests: [test.id],
    location,
    frames: frames.slice(1),
    evidence: evidenceOf(test.message ?? message, test.trace),
    // Not the test's own name: one root cause hit by many tests is one group.
    fingerprint: fingerprint([
      kind,
      type,
      kind === 'timeout' ? test.id : normalizeMessage(message),
      location.file,
      location.symbol,
    ]),
    repairable,
    ...(repairable
      ? {}
      : {
          reason:
            'the failure comes from the environment (network, DNS, permissions), not the code; no fixer was asked',
        }),
    details: {
      exceptionType: type,
      ...(exc?.name ? { name: exc.name } : {}),
      ...(exc?.objType ? { objType: exc.objType } : {}),
      ...(exc?.objName ? { objName: exc.objName } : {}),
      test: test.id,
      when: test.details?.when,
    },
  };
}

async function fromCollection(d: Diagnostic, project: ProjectInfo, cache: Cache): Promise<FailureInput> {
  const { type, message } = exceptionFromText(d.raw ?? d.message);
  const frames = await projectFrames(project.root, textFrames(d.raw ?? ''), cache);
  const kind = type ? kindOf(type, message) : 'collection';
  const module = d.symbol ?? d.file ?? '';
  const location =
    frames[0] ??
    (d.file
      ? { file: projectPath(project.root, d.file) ?? d.file, ...(d.line ? { line: d.line } : {}) }
      : undefined);
  return {
    id: '',
    kind: kind === 'assertion' || kind === 'exception' ? 'collection' : kind,
    title: `cannot collect ${module}: ${type ? `${type}: ` : ''}${message}`.slice(0, 200),
    tests: [],
    ...(location ? { location } : {}),
    frames: frames.slice(1),
    evidence: d.raw ?? d.message,
    fingerprint: fingerprint([
      'collection',
      type,
      normalizeMessage(message),
      location?.file,
      location?.symbol,
    ]),
    repairable: kind !== 'infra',
    diagnostics: [d],
    details: {
      exceptionType: type,
      module,
      ...(type === 'NameError' ? { name: /name '([^']+)'/.exec(message)?.[1] } : {}),
    },
  };
}

/** Groups pytest results by root cause: same kind, exception, normalized message and location. */
export async function analyzePytest(
  result: RunResult,
  project: ProjectInfo,
  cache: Cache,
): Promise<FailureInput[]> {
  const groups = new Map<string, FailureInput>();
  const add = (f: FailureInput): void => {
    const existing = groups.get(f.fingerprint);
    if (!existing) groups.set(f.fingerprint, f);
    else {
      for (const t of f.tests) if (!existing.tests.includes(t)) existing.tests.push(t);
      existing.diagnostics = [...(existing.diagnostics ?? []), ...(f.diagnostics ?? [])];
    }
  };
  for (const d of result.diagnostics)
    if (d.source === 'pytest-collection' && d.severity === 'error')
      add(await fromCollection(d, project, cache));
  for (const t of result.tests) {
    if (t.status === 'failed' || t.status === 'error' || t.status === 'timeout' || t.status === 'crashed')
      add(await fromTest(t, project, cache));
  }
  return [...groups.values()];
}
