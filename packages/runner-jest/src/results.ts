import { relative } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { z, type Diagnostic, type TestResult } from '@suture/core';
import { distinctNames, testId } from './ids.js';
import type { Nth } from './test-locations.js';

/** One test of a Jest report: an entry of `assertionResults`, or what onTestCaseResult gets. */
export const AssertionResultSchema = z
  .object({
    ancestorTitles: z.array(z.string()).default([]),
    fullName: z.string(),
    title: z.string(),
    status: z.string(),
    location: z.object({ line: z.number(), column: z.number() }).nullish(),
    failureMessages: z.array(z.string()).nullish(),
    duration: z.number().nullish(),
  })
  .passthrough();
export type AssertionResult = z.infer<typeof AssertionResultSchema>;

/** One test file of a Jest report. */
export const SuiteResultSchema = z
  .object({
    name: z.string(),
    status: z.string(),
    message: z.string().default(''),
    assertionResults: z.array(AssertionResultSchema).default([]),
    /** suture's reporter: the displayName of the Jest project the file ran in, when it has one. */
    project: z.string().optional(),
  })
  .passthrough();
export type SuiteResult = z.infer<typeof SuiteResultSchema>;

/** The part of Jest's `--json` report suture reads; parsed, so a damaged report is a clear error. */
export const JestJsonSchema = z.object({ testResults: z.array(SuiteResultSchema) }).passthrough();
export type JestJson = z.infer<typeof JestJsonSchema>;

/** Jest's report file, or why it cannot be used. */
export function readJestJson(raw: string): { json: JestJson } | { error: string } {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (error) {
    return { error: `Jest's JSON report is not valid JSON (${(error as Error).message})` };
  }
  const parsed = JestJsonSchema.safeParse(value);
  if (parsed.success) return { json: parsed.data };
  const issue = parsed.error.issues[0]!;
  return {
    error: `Jest's JSON report does not have the shape Jest writes: ${issue.path.join('.') || '(root)'}: ${issue.message}`,
  };
}

// Jest colours its failure messages whenever chalk sees colour support (FORCE_COLOR in CI, say).
const plain = (text: string): string => stripVTControlCharacters(text);

/** What a reader of Jest's own timeout failure can change. */
export const JEST_TIMEOUT_HINT =
  'raise the runner option "testTimeoutMs" (or Jest\'s testTimeout, or the timeout argument of this test)';

/** The failure message without the stack: what a reviewer reads first. */
export function shortMessage(text: string): string {
  const lines = plain(text).split('\n');
  const stackAt = lines.findIndex((l) => /^\s+at /.test(l));
  return (stackAt >= 0 ? lines.slice(0, stackAt) : lines).join('\n').trim().slice(0, 2000);
}

function status(a: AssertionResult): TestResult['status'] {
  if (a.status === 'passed') return 'passed';
  if (a.status === 'failed')
    return (a.failureMessages ?? []).some((m) => /Exceeded timeout of \d+ ?ms/.test(plain(m)))
      ? 'timeout'
      : 'failed';
  return 'skipped';
}

/** `Expected: 4` / `Received: 3` lines of an expect() failure. */
function expectation(message: string): Record<string, string> {
  const expected = /^\s*Expected(?: value)?:\s*(.*)$/m.exec(message)?.[1];
  const received = /^\s*Received(?: value)?:\s*(.*)$/m.exec(message)?.[1];
  return { ...(expected !== undefined ? { expected } : {}), ...(received !== undefined ? { received } : {}) };
}

/** Where a suite that failed to run points: Babel's `(line:col)`, a code frame `> 12 |`, or a stack frame. */
function suitePosition(message: string, file: string): { line?: number; column?: number } {
  const babel =
    new RegExp(`${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: [^\\n]*\\((\\d+):(\\d+)\\)`).exec(message) ??
    /\((\d+):(\d+)\)\s*$/m.exec(message);
  if (babel) return { line: Number(babel[1]), column: Number(babel[2]) + 1 };
  const frame = /^\s*>\s*(\d+)\s*\|/m.exec(message);
  if (frame) return { line: Number(frame[1]) };
  return {};
}

/** `lineOf` gives the line of a test Jest reported no location for (the suite's absolute path, its describe titles, its title). */
export function foldResults(
  json: JestJson,
  root: string,
  lineOf?: (file: string, ancestors: readonly string[], title: string, nth?: Nth) => number | undefined,
): { tests: TestResult[]; diagnostics: Diagnostic[] } {
  const tests: TestResult[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const suite of json.testResults) {
    const file = relative(root, suite.name);
    if (suite.assertionResults.length === 0 && suite.status === 'failed') {
      const message = plain(suite.message);
      const headline =
        message
          .split('\n')
          .map((l) => l.trim())
          .filter((l) => l && !l.startsWith('●'))[0] ?? 'Test suite failed to run';
      diagnostics.push({
        source: 'jest-suite',
        severity: 'error',
        message: headline,
        file,
        ...suitePosition(message, file),
        code:
          /SyntaxError/.test(message) || /Unexpected token/.test(message)
            ? 'SyntaxError'
            : /Cannot find module/.test(message)
              ? 'ModuleNotFound'
              : undefined,
        notes: [],
        fixIts: [],
        tests: [],
        raw: message.slice(0, 20_000),
      });
      continue;
    }
    const fullNames = suite.assertionResults.map((a) => a.fullName);
    const names = distinctNames(fullNames);
    const of = new Map<string, number>();
    for (const n of fullNames) of.set(n, (of.get(n) ?? 0) + 1);
    const seen = new Map<string, number>();
    const nth = (n: string): Nth => {
      const index = seen.get(n) ?? 0;
      seen.set(n, index + 1);
      return { index, of: of.get(n)! };
    };
    suite.assertionResults.forEach((a, i) => {
      const place = nth(a.fullName);
      const line = a.location?.line ?? lineOf?.(suite.name, a.ancestorTitles, a.title, place);
      tests.push(testResultOf(a, file, line, suite.project, names[i]));
    });
  }
  return { tests, diagnostics };
}

/**
 * One test of a Jest report as a suite TestResult; `file` is relative to the project root.
 * `idName` is its full name as its id has it (`distinctNames`), when a test before it in its file
 * has the same one.
 */
export function testResultOf(
  a: AssertionResult,
  file: string,
  line?: number,
  project?: string,
  idName: string = a.fullName,
): TestResult {
  const failure = plain((a.failureMessages ?? []).join('\n\n'));
  const st = status(a);
  const short = failure ? shortMessage(failure) : '';
  return {
    id: testId(file, idName, project),
    name: a.fullName,
    file,
    ...(line ? { line } : {}),
    status: st,
    ...(a.duration != null ? { durationMs: a.duration } : {}),
    ...(failure
      ? {
          message: st === 'timeout' ? `${short}\n(${JEST_TIMEOUT_HINT})` : short,
          trace: failure.slice(0, 100_000),
          details: { ...expectation(failure), title: a.title, ancestorTitles: a.ancestorTitles },
        }
      : {}),
  };
}
