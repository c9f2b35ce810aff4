import { readFile, stat } from 'node:fs/promises';
import type { TestResult } from '@suture/core';
import type { EntryEnd } from './ctest-stream.js';

/** Unity's summary: `-----------------------` then `3 Tests 0 Failures 0 Ignored`. */
const SUMMARY = /^\d+ Tests \d+ Failures \d+ Ignored\s*$/m;
/** The summary's words, each a string constant of Unity's own (`UnityStrResultsTests` ...). */
const WORDS = [' Tests \0', ' Failures \0', ' Ignored \0'].map((w) => Buffer.from(w));
const MAX_BYTES = 256 * 1024 * 1024;

export interface UnityCase {
  file: string;
  line: number;
  name: string;
  status: 'passed' | 'failed' | 'skipped';
  message: string;
}

/** Unity's line per test: `file:line:test:PASS`, `file:line:test:FAIL: message`, `file:line:test:IGNORE`. */
export function unityCases(output: string): UnityCase[] {
  return [...output.matchAll(/^(.+?):(\d+):(\w+):(PASS|FAIL|IGNORE)\b:?[ \t]*(.*)$/gm)].map((m) => ({
    file: m[1]!,
    line: Number(m[2]),
    name: m[3]!,
    status: m[4] === 'PASS' ? 'passed' : m[4] === 'FAIL' ? 'failed' : 'skipped',
    message: m[5] ?? '',
  }));
}

const linked = new Map<string, Promise<boolean>>();

/** Does the program carry Unity's summary strings (is it a Unity test program)? Read once per build. */
async function linksUnity(executable: string): Promise<boolean> {
  const info = await stat(executable).catch(() => undefined);
  if (!info?.isFile() || info.size > MAX_BYTES) return false;
  const key = `${executable}\0${info.mtimeMs}\0${info.size}`;
  if (!linked.has(key))
    linked.set(
      key,
      readFile(executable).then(
        (bytes) => WORDS.every((w) => bytes.includes(w)),
        () => false,
      ),
    );
  return linked.get(key)!;
}

export const UNITY_ENDED_EARLY =
  'the program exited with code 0 before Unity reported its summary: a test it started never finished (an exit in the code under test, or a return in main before UNITY_END)';

/**
 * A Unity program reports every test and ends with its summary; one that exits with code 0 before
 * the summary (an `exit(0)` in the code under test, a `return 0` in main before `UNITY_END`) made
 * CTest say Passed for tests that never finished. The tests it reported keep their results; the
 * entry itself is a crash with that reason, so the run is not green.
 */
export async function unityEndedEarly(
  results: TestResult[],
  output: string,
  end: EntryEnd,
  command: readonly string[] | undefined,
): Promise<TestResult[]> {
  const program = command?.[0];
  if (end.status !== 'passed' || !program || SUMMARY.test(output) || !(await linksUnity(program)))
    return results;
  const crash: TestResult = {
    id: end.name,
    name: end.name,
    status: 'crashed',
    message: UNITY_ENDED_EARLY,
    ...(output ? { trace: output } : {}),
    details: { entry: end.name, ctest: end.detail },
  };
  return [...results.filter((t) => t.id !== end.name), crash];
}

/**
 * A selected test of an entry that crashed before reporting it (`entry::test_add` of a Unity
 * program that exited early): it crashed, with the entry's reason, rather than "did not run".
 */
export function caseOfCrashedEntry(id: string, tests: readonly TestResult[]): TestResult | undefined {
  const entry = tests.find((t) => t.status === 'crashed' && id.startsWith(`${t.id}::`));
  if (!entry) return undefined;
  return {
    id,
    name: id.slice(entry.id.length + 2),
    status: 'crashed',
    ...(entry.message ? { message: entry.message } : {}),
    details: { entry: entry.id },
  };
}
