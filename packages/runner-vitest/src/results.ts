import { isAbsolute, relative } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import type { Diagnostic, TestResult } from '@suture/core';
import type { VitestError, VitestEvent } from './events.js';
import { TestNames } from './ids.js';

export const VITEST_TIMEOUT_HINT =
  'raise the runner option "testTimeoutMs" (or Vitest\'s testTimeout, or the timeout argument of this test)';

const plain = (text: string): string => stripVTControlCharacters(text);

/** An error as Vitest prints it: `Name: message`, the diff, then its frames in V8's form. */
export function errorText(e: VitestError): string {
  const head = `${e.name}: ${plain(e.message)}`;
  const diff = e.diff ? `\n\n${plain(e.diff)}\n` : '';
  const frames = e.frames
    ? e.frames.map(
        (f) =>
          `    at ${f.method ? `${f.method} (` : ''}${f.file}:${f.line}:${f.column}${f.method ? ')' : ''}`,
      )
    : plain(e.stack ?? '')
        .split('\n')
        .filter((l) => /^\s+at /.test(l));
  return `${head}${diff}\n${frames.join('\n')}`.trimEnd();
}

const TIMED_OUT = /^Error: (?:Test|Hook) timed out in \d+ ?ms/;

type TestEnd = Extract<VitestEvent, { event: 'test-end' }>;

/**
 * One test's end as a suite TestResult; files relative to the project root. `names` has seen the
 * collection of its file, which marks a test whose full name an earlier test of the file has.
 */
export function testResultOf(e: TestEnd, root: string, names: TestNames): TestResult {
  const file = relative(root, e.file).split('\\').join('/');
  const texts = e.errors.map(errorText);
  const failure = texts.join('\n\n');
  const failed = e.state === 'failed';
  const status: TestResult['status'] =
    e.state === 'passed'
      ? 'passed'
      : failed
        ? texts.some((t) => TIMED_OUT.test(t))
          ? 'timeout'
          : 'failed'
        : 'skipped';
  const first = e.errors[0];
  const short = first ? `${first.name}: ${plain(first.message)}`.slice(0, 2000) : '';
  const name = e.names.join(' > ');
  return {
    id: names.id(root, e),
    name,
    file,
    ...(e.line ? { line: e.line } : {}),
    status,
    ...(e.durationMs !== undefined ? { durationMs: Math.round(e.durationMs) } : {}),
    ...(failed && failure
      ? {
          message: status === 'timeout' ? `${short}\n(${VITEST_TIMEOUT_HINT})` : short,
          trace: failure.slice(0, 100_000),
          details: {
            ...(first?.expected !== undefined ? { expected: first.expected } : {}),
            ...(first?.actual !== undefined ? { received: first.actual } : {}),
            title: e.names[e.names.length - 1]!,
            ancestorTitles: e.names.slice(0, -1),
          },
        }
      : {}),
  };
}

/** Where an error of a file that failed to run points: the transform's `file:line:col`, or a frame in the project. */
function errorPlace(root: string, e: VitestError): { file?: string; line?: number; column?: number } {
  const inProject = (f: string): string | undefined => {
    const rel = relative(root, isAbsolute(f) ? f : `${root}/${f}`);
    return rel.startsWith('..') || isAbsolute(rel) || rel.includes('node_modules') ? undefined : rel;
  };
  for (const m of plain(`${e.message}\n${e.stack ?? ''}`).matchAll(
    /(?:^|[\s([])((?:\/|\.{0,2}[\w@-])[^\s:()[\]]*\.[cm]?[jt]sx?):(\d+):(\d+)/gm,
  )) {
    const file = inProject(m[1]!.replace(/^file:\/\//, ''));
    if (file) return { file, line: Number(m[2]), column: Number(m[3]) };
  }
  return {};
}

/** A test file that failed to run (syntax, a module not found, a throw at its top level) as a diagnostic. */
export function suiteDiagnostic(
  root: string,
  abs: string,
  errors: readonly VitestError[],
  project?: string,
): Diagnostic {
  const file = relative(root, abs).split('\\').join('/');
  const first = errors[0]!;
  const raw = errors.map(errorText).join('\n\n');
  const message = plain(first.message)
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  const text = `${first.name}: ${plain(first.message)}`;
  const syntax = /Transform failed|PARSE_ERROR|SyntaxError|Unexpected token|Expected ".*" but found/.test(
    text,
  );
  const place = syntax ? errorPlace(root, first) : {};
  const code = syntax
    ? 'SyntaxError'
    : /Cannot find (?:module|package)|Failed to (?:load|resolve) (?:url|import)/.test(text)
      ? 'ModuleNotFound'
      : undefined;
  return {
    source: 'vitest-suite',
    severity: 'error',
    message:
      `${project ? `[${project}] ` : ''}${message.find((l) => !/^Transform failed/.test(l)) ?? message[0] ?? 'Test file failed to run'}`.slice(
        0,
        500,
      ),
    file: place.file ?? file,
    ...(place.line ? { line: place.line } : {}),
    ...(place.column ? { column: place.column } : {}),
    ...(code ? { code } : {}),
    notes: place.file && place.file !== file ? [{ message: `while loading the test file ${file}` }] : [],
    fixIts: [],
    tests: [],
    raw: raw.slice(0, 20_000),
  };
}

/**
 * The tests and diagnostics of the passes' events: each test's last report (a skip does not
 * replace a result of an earlier pass), each failed file's errors once.
 */
export function foldEvents(
  events: readonly VitestEvent[],
  root: string,
): { tests: TestResult[]; diagnostics: Diagnostic[] } {
  const tests = new Map<string, TestResult>();
  const names = new TestNames();
  const fileErrors = new Map<string, { file: string; project?: string; errors: VitestError[] }>();
  const addErrors = (file: string, project: string | undefined, errors: readonly VitestError[]): void => {
    if (errors.length === 0) return;
    const key = `${project ?? ''}\0${file}`;
    const known = fileErrors.get(key) ?? { file, ...(project !== undefined ? { project } : {}), errors: [] };
    for (const e of errors) if (!known.errors.some((k) => k.message === e.message)) known.errors.push(e);
    fileErrors.set(key, known);
  };
  for (const e of events) {
    names.observe(e);
    if (e.event === 'test-end') {
      const t = testResultOf(e, root, names);
      // a later pass skips the tests of a hung one's name, which includes its twins that ran before
      const before = tests.get(t.id);
      if (t.status !== 'skipped' || !before || before.status === 'skipped') tests.set(t.id, t);
    } else if (e.event === 'collected' || e.event === 'file-end') addErrors(e.file, e.project, e.errors);
    else if (e.event === 'run-end') for (const f of e.files) addErrors(f.file, f.project, f.errors);
  }
  const diagnostics = [...fileErrors.values()].map((f) => suiteDiagnostic(root, f.file, f.errors, f.project));
  return { tests: [...tests.values()], diagnostics };
}

/** Errors Vitest reports outside any test (an unhandled rejection after a test ended): they fail its run. */
export function unhandledDiagnostics(events: readonly VitestEvent[], root: string): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const e of events) {
    if (e.event !== 'run-end') continue;
    for (const err of e.errors) {
      const place = errorPlace(root, err);
      out.push({
        source: 'vitest-unhandled',
        severity: 'error',
        message: `Unhandled ${err.name}: ${plain(err.message).split('\n')[0]}`.slice(0, 500),
        ...(place.file ? { file: place.file } : {}),
        ...(place.line ? { line: place.line } : {}),
        ...(place.column ? { column: place.column } : {}),
        notes: [
          { message: 'Vitest fails a run that has an error outside its tests, even when every test passed' },
        ],
        fixIts: [],
        tests: [],
        raw: errorText(err).slice(0, 20_000),
      });
    }
  }
  return out;
}
