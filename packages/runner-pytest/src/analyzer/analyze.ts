import { isAbsolute, relative } from 'node:path';
import type { Diagnostic, FailureInput, Location, ProjectInfo, RunResult, TestResult } from '@suture/core';
import { distinctFrames, groupFailures, type FailureCase } from '@suture/core/analysis';
import type { ExceptionInfo } from '../events.js';
import { exceptionFromText, kindOf } from './classify.js';
import type { PythonProject } from './python-project.js';
import { withSuspects } from './suspects.js';

const FOREIGN = /(^|\/)(site-packages|dist-packages|\.venv|venv|lib\/python3[\d.]*|_pytest|pluggy)\//;

/** Code with no file of its own: `<frozen os>`, `<string>`, `<frozen importlib._bootstrap>`, `<stdin>`. */
const NO_FILE = /^<[^>]*>$/;

function projectPath(root: string, file: string): string | undefined {
  // a frozen or built-in module, or code compiled from a string, is never a project file
  if (NO_FILE.test(file.trim())) return undefined;
  const rel = isAbsolute(file) ? relative(root, file) : file;
  if (rel.startsWith('..') || isAbsolute(rel) || FOREIGN.test(rel) || FOREIGN.test(file)) return undefined;
  return rel.split('\\').join('/');
}

/**
 * The definition a 1-based line is in: the method before its class; a function nested in another
 * (a decorator's wrapper) is part of the definition around it.
 */
export async function symbolAt(
  project: PythonProject,
  file: string,
  line: number,
): Promise<string | undefined> {
  const index = await project.index(file);
  let best: { name: string; line: number } | undefined;
  for (const d of index?.module.defs ?? [])
    if (d.line <= line && line <= d.endLine && (!best || d.line >= best.line)) best = d;
  return best?.name;
}

/** Project frames of a traceback, innermost first, each with its enclosing function, each function once. */
async function projectFrames(project: PythonProject, frames: ExceptionInfo['frames']): Promise<Location[]> {
  const out: Location[] = [];
  for (const f of [...frames].reverse()) {
    const file = projectPath(project.root, f.file);
    if (!file) continue;
    const symbol = await symbolAt(project, file, f.line);
    out.push({
      file,
      line: f.line,
      ...(symbol ? { symbol } : f.function && f.function !== '<module>' ? { symbol: f.function } : {}),
    });
  }
  return distinctFrames(out);
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

/**
 * Where a test is defined, as a file and a function: a test function, the function a doctest
 * documents (a doctest item is named by its dotted path, `pkg.mod.Cls.meth`), or a document.
 */
async function ownPlace(id: string, project: PythonProject): Promise<{ file: string; symbol?: string }> {
  const own = testSymbol(id);
  if (!own.file.endsWith('.py')) return { file: own.file };
  const named = id.split('::')[1] ?? '';
  const index =
    id.split('::').length === 2 && named.includes('.') ? await project.index(own.file) : undefined;
  if (!index || index.defs.has(named)) return own;
  const parts = named.split('.');
  for (const n of [2, 1])
    if (index.defs.has(parts.slice(-n).join('.')))
      return { file: own.file, symbol: parts.slice(-n).join('.') };
  return { file: own.file };
}

async function fromTest(test: TestResult, project: PythonProject): Promise<FailureCase> {
  const exc = (test.details?.exception as ExceptionInfo | undefined) ?? undefined;
  const fallback = exceptionFromText(test.trace ?? '');
  const type = exc?.type ?? fallback.type;
  const message = exc?.message ?? fallback.message ?? test.message ?? '';
  const frames = await projectFrames(project, exc?.frames ?? textFrames(test.trace ?? ''));
  const kind = test.status === 'timeout' ? 'timeout' : kindOf(type, `${message}\n${test.trace ?? ''}`);
  const own = await ownPlace(test.id, project);
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

async function fromCollection(d: Diagnostic, project: PythonProject): Promise<FailureCase> {
  const { type, message } = exceptionFromText(d.raw ?? d.message);
  const frames = await projectFrames(project, textFrames(d.raw ?? ''));
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
  _info: ProjectInfo,
  project: PythonProject,
): Promise<FailureInput[]> {
  const cases: FailureCase[] = [];
  for (const d of result.diagnostics)
    if (d.source === 'pytest-collection' && d.severity === 'error')
      cases.push(await fromCollection(d, project));
  for (const t of result.tests) {
    if (t.status === 'failed' || t.status === 'error' || t.status === 'timeout' || t.status === 'crashed')
      cases.push(await fromTest(t, project));
  }
  return groupFailures(await withSuspects(cases, project));
}
