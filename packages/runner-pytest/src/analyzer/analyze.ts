import { isAbsolute, join, relative } from 'node:path';
import type { Diagnostic, FailureInput, Location, ProjectInfo, RunResult, TestResult } from '@suture/core';
import { groupFailures, type FailureCase } from '@suture/core/analysis';
import type { ExceptionInfo } from '../events.js';
import { exceptionFromText, kindOf } from './classify.js';
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

async function fromTest(test: TestResult, project: ProjectInfo, cache: Cache): Promise<FailureCase> {
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
  const failure: FailureCase['failure'] = {
    id: '',
    kind,
    title,
    tests: [test.id],
    location,
    frames: frames.slice(1),
    evidence: evidenceOf(test.message ?? message, test.trace),
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
  // an assertion's first line is what failed; pytest's explanation after it only spells out values
  const said =
    kind === 'timeout'
      ? (test.message ?? 'timeout')
      : kind === 'assertion'
        ? (message.split('\n')[0] ?? '')
        : message;
  return { failure, type, message: said };
}

async function fromCollection(d: Diagnostic, project: ProjectInfo, cache: Cache): Promise<FailureCase> {
  const { type, message } = exceptionFromText(d.raw ?? d.message);
  const frames = await projectFrames(project.root, textFrames(d.raw ?? ''), cache);
  const kind = type ? kindOf(type, message) : 'collection';
  const module = d.symbol ?? d.file ?? '';
  const location =
    frames[0] ??
    (d.file
      ? { file: projectPath(project.root, d.file) ?? d.file, ...(d.line ? { line: d.line } : {}) }
      : undefined);
  const failure: FailureCase['failure'] = {
    id: '',
    kind: kind === 'assertion' || kind === 'exception' ? 'collection' : kind,
    title: `cannot collect ${module}: ${type ? `${type}: ` : ''}${message}`.slice(0, 200),
    tests: [],
    ...(location ? { location } : {}),
    frames: frames.slice(1),
    evidence: d.raw ?? d.message,
    repairable: kind !== 'infra',
    diagnostics: [d],
    details: {
      exceptionType: type,
      module,
      ...(type === 'NameError' ? { name: /name '([^']+)'/.exec(message)?.[1] } : {}),
    },
  };
  return { failure, type, message };
}

/** pytest's failing tests and collection errors, grouped by root cause with core's one policy. */
export async function analyzePytest(
  result: RunResult,
  project: ProjectInfo,
  cache: Cache,
): Promise<FailureInput[]> {
  const cases: FailureCase[] = [];
  for (const d of result.diagnostics)
    if (d.source === 'pytest-collection' && d.severity === 'error')
      cases.push(await fromCollection(d, project, cache));
  for (const t of result.tests) {
    if (t.status === 'failed' || t.status === 'error' || t.status === 'timeout' || t.status === 'crashed')
      cases.push(await fromTest(t, project, cache));
  }
  return groupFailures(cases);
}
