import type {
  Diagnostic,
  FailureInput,
  FailureKind,
  Location,
  ProjectInfo,
  RunResult,
  TestResult,
} from '@suture/core';
import { isAbsolute, relative, resolve } from 'node:path';
import { distinctFrames, groupFailures, type FailureCase, type SummaryCache } from '@suture/core/analysis';
import { parseId } from '../ids.js';
import { enclosingSymbol, type ScriptCache } from './js-model.js';
import type { JsModule } from './js-summary.js';
import { projectFrames } from './stack.js';
import { withSuspects } from './suspects.js';

const ERROR_TYPE = /^\s*(?:thrown: )?"?(\w*Error|Error)(?:\s*\[\w+\])?:/m;

function kindOf(test: TestResult): FailureKind {
  if (test.status === 'timeout') return 'timeout';
  if (test.status === 'crashed') return 'crash';
  const text = test.trace ?? test.message ?? '';
  if (/expect\(|toBe|toEqual|toThrow|Expected|AssertionError/.test(test.message ?? '')) return 'assertion';
  if (/ECONNREFUSED|ENOTFOUND|EAI_AGAIN|getaddrinfo|socket hang up/.test(text)) return 'infra';
  return 'exception';
}

/**
 * Whether a frame's line and column are in its file. A transform whose source map is off (ts-jest
 * under some tsconfigs) gives places past a line's end or on blank lines, in the import list or in
 * another test: they would seed the scope with the wrong code, so they are left out, and the test
 * itself stands in when no frame is left. The trace keeps them as Jest printed them.
 */
function inSource(source: string, line: number, column: number | undefined): boolean {
  const text = source.split('\n', line)[line - 1];
  if (text === undefined || text.trim() === '') return false;
  return column === undefined || column <= text.length + 1;
}

async function locate(
  root: string,
  frames: ReturnType<typeof projectFrames>,
  cache: ScriptCache,
): Promise<Location[]> {
  const out: Location[] = [];
  for (const f of frames) {
    const parsed = await cache.parseFile(root, f.file);
    if (parsed && !inSource(parsed.source, f.line, f.column)) continue;
    const symbol = parsed ? enclosingSymbol(parsed.tree, f.line, f.column) : undefined;
    out.push({ file: f.file, line: f.line, column: f.column, ...(symbol ? { symbol } : {}) });
  }
  return distinctFrames(out);
}

/** Jest prints each failure twice (message and stack, in failureMessages and in the suite message): keep it once. */
function dedupe(text: string): string {
  const blocks = text.split(/\n{2,}/);
  return blocks.filter((b, i) => blocks.indexOf(b) === i).join('\n\n');
}

async function fromTest(test: TestResult, project: ProjectInfo, cache: ScriptCache): Promise<FailureCase> {
  const kind = kindOf(test);
  const frames = await locate(project.root, projectFrames(project.root, test.trace ?? ''), cache);
  const { file, fullName } = parseId(test.id);
  // with no frame of its own (a timeout), the test is the place, named by its full name
  const own: Location = {
    file,
    ...(test.line ? { line: test.line } : {}),
    ...(fullName ? { symbol: fullName } : {}),
  };
  // where it was raised: the innermost project frame, the test itself for a plain expect(), a
  // shared assertion helper when the test calls one (then every test that calls it shares the place)
  const location = frames[0] ?? own;
  const type = ERROR_TYPE.exec(test.message ?? '')?.[1];
  const title =
    kind === 'timeout' ? `timeout in ${fullName}` : (test.message ?? 'failed').split('\n')[0]!.slice(0, 200);
  const failure: FailureCase['failure'] = {
    id: '',
    kind,
    title,
    tests: [test.id],
    location,
    frames: frames.filter((f) => f !== location),
    evidence: dedupe(test.trace ?? test.message ?? ''),
    repairable: kind !== 'infra',
    ...(kind === 'infra'
      ? { reason: 'the failure comes from the environment (network), not the code; no fixer was asked' }
      : {}),
    details: { ...(type ? { errorType: type } : {}), ...(test.details ?? {}), test: test.id },
  };
  const message = test.message ?? test.status;
  // a matcher's first line says what failed; the lines after it spell out the values
  return { failure, type, message: kind === 'assertion' ? (message.split('\n')[0] ?? '') : message };
}

/** A file of the project, relative to its root; undefined for one outside it. */
function projectFile(root: string, file: string): string | undefined {
  const rel = relative(root, resolve(root, file)).split('\\').join('/');
  return rel.startsWith('..') || isAbsolute(rel) ? undefined : rel;
}

/** An error a suite reports in a source of the project, as its transform names it. */
interface SourceError {
  kind: FailureKind;
  /** What groups it: `SyntaxError`, or the TypeScript code (`TS18046`). */
  type: string;
  /** How the title names it: `SyntaxError`, `error TS18046`. */
  label: string;
  location: Location;
  message: string;
}

/**
 * Where a suite's syntax error really is: Babel and ts-jest name the file they could not parse
 * (`SyntaxError: /abs/src/math.js: Unexpected token (2:12)`), which is often a source the test
 * imports, not the test Jest was running.
 */
function syntaxError(root: string, text: string): SourceError | undefined {
  const m = /SyntaxError: ((?:\/|[A-Za-z]:\\)[^\n:]+?):\s*([^\n]*?)\s*\((\d+):(\d+)\)/.exec(text);
  const file = m && projectFile(root, m[1]!);
  if (!m || !file) return undefined;
  const location = { file, line: Number(m[3]), column: Number(m[4]) + 1 };
  return { kind: 'syntax', type: 'SyntaxError', label: 'SyntaxError', location, message: m[2]! };
}

/**
 * Where a suite's TypeScript error is: ts-jest reports the compiler's diagnostics for the file it
 * compiled (`src/dates.ts:2:42 - error TS18046: 'value' is of type 'unknown'.`), often a source
 * that every test file importing it fails on. Placed there, they are one failure, not one a suite.
 */
function typeError(root: string, text: string): SourceError | undefined {
  const m = /^\s*([^\s:][^\n:]*?\.[cm]?tsx?):(\d+):(\d+) - error (TS\d+): ([^\n]*)/m.exec(text);
  const file = m && projectFile(root, m[1]!);
  if (!m || !file) return undefined;
  const location = { file, line: Number(m[2]), column: Number(m[3]) };
  return { kind: 'build', type: m[4]!, label: `error ${m[4]}`, location, message: m[5]!.trim() };
}

/** A suite's output without Jest's advice on configuring transforms and the parser's own stack. */
function suiteEvidence(text: string): string {
  const details = text.indexOf('Details:');
  const kept = details >= 0 ? text.slice(details + 'Details:'.length) : text;
  return kept
    .split('\n')
    .filter(
      (l) => !/^\s*at .*(node_modules|node:internal)/.test(l) && !/^\s*at \S+\.next \(<anonymous>\)/.test(l),
    )
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

function fromSuite(d: Diagnostic, root: string): FailureCase {
  const raw = d.raw ?? d.message;
  const kind: FailureKind =
    d.code === 'SyntaxError' ? 'syntax' : d.code === 'ModuleNotFound' ? 'import' : 'collection';
  const source =
    kind === 'syntax' ? syntaxError(root, raw) : d.code === undefined ? typeError(root, raw) : undefined;
  const message = source?.message ?? d.message;
  const location: Location | undefined =
    source?.location ??
    (d.file
      ? { file: d.file, ...(d.line ? { line: d.line } : {}), ...(d.column ? { column: d.column } : {}) }
      : undefined);
  const failure: FailureCase['failure'] = {
    id: '',
    kind: source?.kind ?? kind,
    title: source
      ? `${source.location.file}:${source.location.line}:${source.location.column}: ${source.label}: ${message}`.slice(
          0,
          200,
        )
      : `${d.file} failed to run: ${d.message}`.slice(0, 200),
    tests: [],
    ...(location ? { location } : {}),
    frames: [],
    evidence: dedupe(suiteEvidence(raw)),
    repairable: true,
    diagnostics: [d],
    details: source && d.file ? { suite: d.file } : {},
  };
  const type = source?.type ?? d.code;
  return { failure, ...(type ? { type } : {}), message };
}

/** Jest's failing tests and suites that failed to run, grouped by root cause with core's one policy. */
export async function analyzeJest(
  result: RunResult,
  project: ProjectInfo,
  cache: ScriptCache,
  summaries: SummaryCache<JsModule>,
): Promise<FailureInput[]> {
  const cases: FailureCase[] = [];
  // a test file that failed to run, as the Jest and Vitest runners report it
  for (const d of result.diagnostics)
    if (d.source === 'jest-suite' || d.source === 'vitest-suite') cases.push(fromSuite(d, project.root));
  for (const t of result.tests)
    if (t.status === 'failed' || t.status === 'timeout' || t.status === 'error' || t.status === 'crashed')
      cases.push(await fromTest(t, project, cache));
  return groupFailures(await withSuspects(cases, project, summaries));
}
