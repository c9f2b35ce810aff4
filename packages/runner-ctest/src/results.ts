import { isAbsolute, relative } from 'node:path';
import type { TestResult } from '@suture/core';
import { crashCause, sanitizerCrash } from './crash-cause.js';
import { gtestTranscriptFailures, transcriptFailure, trimMessage } from './ctest-output.js';
import type { EntryEnd } from './ctest-stream.js';
import type { Located } from './gtest-listing.js';
import type { CaseEnd } from './gtest-stream.js';
import { unityCases } from './unity-exit.js';

/** A project-relative path when the file is inside the project, else the path as given. */
export function rel(root: string, file: string): string {
  const r = isAbsolute(file) ? relative(root, file) : file;
  return r.startsWith('..') ? file : r;
}

/** The id of a GoogleTest case inside a whole test binary registered as one CTest entry. */
export const caseId = (entry: string, kase: string): string => `${entry}::${kase}`;

const at = (root: string, where: Located | undefined): Partial<TestResult> =>
  where ? { file: rel(root, where.file), line: where.line } : {};

/** A case of a whole-binary entry that ended with a result line of its own. */
export function caseResult(root: string, entry: string, kase: CaseEnd, defined?: Located): TestResult {
  const base: TestResult = {
    id: caseId(entry, kase.name),
    name: kase.name,
    status: kase.status,
    ...(kase.ms !== undefined ? { durationMs: kase.ms } : {}),
    ...at(root, defined),
  };
  if (kase.status !== 'failed') return { ...base, details: { entry, gtest: kase.name } };
  const failure = gtestTranscriptFailures(kase.transcript).get(kase.name);
  const message = failure?.message.split('\n').slice(0, 6).join('\n');
  return {
    ...base,
    // without a definition line, the failure's line is the best place to look
    ...(!defined && failure?.file ? { file: rel(root, failure.file), line: failure.line } : {}),
    ...(message ? { message } : {}),
    trace: trimMessage(kase.transcript),
    details: {
      entry,
      gtest: kase.name,
      ...(failure?.file ? { failureFile: rel(root, failure.file), failureLine: failure.line } : {}),
    },
  };
}

export interface Stop {
  status: 'timeout' | 'crashed';
  /** The timeout's message (what to raise), or CTest's words for the crash. */
  reason: string;
}

/** The case a whole binary was in when it was stopped (by a limit, a crash), or the entry itself. */
export function stoppedResult(
  root: string,
  entry: string,
  running: string | undefined,
  stop: Stop,
  output: string,
  defined: Located | undefined,
): TestResult {
  const cause = stop.status === 'crashed' ? crashCause(output) : undefined;
  const frame = cause?.frame;
  const between = running ? '' : ' (outside any GoogleTest case: before the first, or after the last)';
  return {
    id: running ? caseId(entry, running) : entry,
    name: running ?? entry,
    status: stop.status,
    ...at(root, defined),
    message: (stop.status === 'timeout'
      ? `${stop.reason}${between}`
      : `crashed: ${cause?.reason ?? stop.reason}${between}`
    ).slice(0, 4000),
    trace: trimMessage(output),
    details: {
      entry,
      ...(running ? { gtest: running } : {}),
      ...(frame ? { frame: { ...frame, file: rel(root, frame.file) } } : {}),
      ...(stop.status === 'crashed' ? { ctest: stop.reason } : {}),
    },
  };
}

/**
 * One CTest entry that is one test: a plain executable, a gtest_discover_tests case, or a whole
 * binary whose output is not a GoogleTest transcript. A Unity binary reports its failing tests
 * one by one.
 */
export function entryResults(
  root: string,
  end: EntryEnd,
  output: string,
  gtestName: string | undefined,
  defined: Located | undefined,
  timeout: string | undefined,
): TestResult[] {
  let status: TestResult['status'] = end.status === 'notrun' ? 'error' : end.status;
  if (timeout) status = 'timeout';
  // a sanitizer that ends the program with exit code 1 stopped it as a crash does
  if (status === 'failed' && sanitizerCrash(output)) status = 'crashed';
  const base: TestResult = {
    id: end.name,
    name: end.name,
    status,
    ...(end.seconds !== undefined && !timeout ? { durationMs: end.seconds * 1000 } : {}),
    ...at(root, defined),
  };
  // a Unity program reports each of its tests: one result per test, passed or not
  const unity = !gtestName && (status === 'passed' || status === 'failed') ? unityCases(output) : [];
  if (unity.length > 0)
    return unity.map((u) => ({
      id: caseId(end.name, u.name),
      name: u.name,
      status: u.status,
      file: rel(root, u.file),
      line: u.line,
      ...(u.status === 'failed'
        ? {
            message: u.message,
            trace: trimMessage(output),
            details: { entry: end.name, failureFile: rel(root, u.file), failureLine: u.line },
          }
        : { details: { entry: end.name } }),
    }));
  if (status === 'passed' || status === 'skipped') return [base];
  const cause = status === 'crashed' ? crashCause(output) : undefined;
  const frame = cause?.frame;
  const failure = gtestName && status === 'failed' ? transcriptFailure(output) : undefined;
  const message =
    status === 'timeout'
      ? (timeout ?? `killed by CTest at its timeout (${end.seconds ?? '?'} s)`)
      : status === 'crashed'
        ? `crashed: ${cause?.reason ?? end.detail}`
        : status === 'error'
          ? `CTest did not run it: ${/Unable to find executable: ?(.*)/.exec(output)?.[0] ?? end.detail}`
          : failure?.message || output.trim().split('\n').slice(-5).join('\n') || 'failed';
  const failureFile = failure?.file ?? defined?.file;
  const failureLine = failure?.file ? failure.line : defined?.line;
  return [
    {
      ...base,
      message: message.slice(0, 4000),
      trace: trimMessage(output),
      details: {
        ...(gtestName
          ? { gtest: gtestName, ...(failureFile ? { failureFile: rel(root, failureFile), failureLine } : {}) }
          : {}),
        ...(frame ? { frame: { ...frame, file: rel(root, frame.file) } } : {}),
        ctest: end.detail,
      },
    },
  ];
}
