import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { XMLParser } from 'fast-xml-parser';

export type ConsoleStatus = 'passed' | 'failed' | 'timeout' | 'crashed' | 'skipped' | 'notrun';

/**
 * `3/5 Test #3: Calc.Crashes ....***Exception: SegFault  0.00 sec` lines: the only place timeouts
 * and crashes differ from failures. A signal CTest has no word of its own for comes before the
 * marker: `Subprocess aborted***Exception:` (SIGABRT: `abort()`, a failed `assert()`,
 * `std::terminate`), `Subprocess killed***Exception:`.
 */
export function consoleStatuses(
  output: string,
): Map<string, { status: ConsoleStatus; detail: string; seconds: number }> {
  const out = new Map<string, { status: ConsoleStatus; detail: string; seconds: number }>();
  for (const m of output.matchAll(
    /^\s*\d+\/\d+ Test\s+#\d+: (.+?) \.+\s*(?:(?:\*\*\*)?(Passed|Failed|Timeout|Not Run|Skipped|Exception: [\w ]+?)|([A-Za-z][\w -]*?)\*\*\*Exception:)\s+([\d.]+) sec/gm,
  )) {
    const word = m[2] ?? m[3]!;
    const status: ConsoleStatus =
      word === 'Passed'
        ? 'passed'
        : word === 'Timeout'
          ? 'timeout'
          : word === 'Skipped'
            ? 'skipped'
            : word === 'Not Run'
              ? 'notrun'
              : word === 'Failed'
                ? 'failed'
                : 'crashed';
    out.set(m[1]!, { status, detail: word, seconds: Number(m[4]) });
  }
  return out;
}

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  htmlEntities: true,
  isArray: (name) => name === 'testcase' || name === 'testsuite' || name === 'failure',
});

export interface CtestCase {
  name: string;
  status: string;
  seconds: number;
  output: string;
  skippedMessage?: string;
}

/** CTest's --output-junit file: one `<testsuite>` root; failure messages are empty, details are in system-out. */
export function parseCtestJunit(xml: string): CtestCase[] {
  const doc = parser.parse(xml) as { testsuite?: Array<{ testcase?: Array<Record<string, unknown>> }> };
  const cases = doc.testsuite?.[0]?.testcase ?? [];
  return cases.map((c) => ({
    name: String(c.name),
    status: String(c.status ?? ''),
    seconds: Number(c.time ?? 0),
    output: typeof c['system-out'] === 'string' ? c['system-out'] : '',
    ...(c.skipped ? { skippedMessage: String((c.skipped as { message?: string }).message ?? '') } : {}),
  }));
}

export interface GtestFailure {
  /** gtest name: `Suite.Test` or `Prefix/Suite.Test/index`. */
  name: string;
  file?: string;
  line?: number;
  failureFile?: string;
  failureLine?: number;
  message: string;
  passed: boolean;
}

/** Every gtest XML report in a folder (GTEST_OUTPUT=xml:<dir>/ writes one per binary run). */
export async function readGtestReports(dir: string): Promise<Map<string, GtestFailure>> {
  const out = new Map<string, GtestFailure>();
  for (const f of (await readdir(dir).catch(() => [] as string[])).filter((x) => x.endsWith('.xml'))) {
    let doc: { testsuites?: { testsuite?: Array<{ testcase?: Array<Record<string, unknown>> }> } };
    try {
      doc = parser.parse(await readFile(join(dir, f), 'utf8'));
    } catch {
      continue; // a report cut short by a crash
    }
    for (const suite of doc.testsuites?.testsuite ?? []) {
      for (const c of suite.testcase ?? []) {
        if (c.result === 'skipped' || c.status === 'notrun') continue;
        const name = `${String(c.classname)}.${String(c.name)}`;
        const failures = (c.failure as Array<{ message?: string; '#text'?: string }> | undefined) ?? [];
        // the failing assertion's own `file:line` opens the message; the testcase's line is the TEST's
        const at = /^(\S+):(\d+)\n/.exec(failures[0]?.message ?? '');
        out.set(name, {
          name,
          ...(c.file ? { file: String(c.file) } : {}),
          ...(c.line ? { line: Number(c.line) } : {}),
          ...(at ? { failureFile: at[1]!, failureLine: Number(at[2]) } : {}),
          // gtest starts each message with its own `file:line` line
          message: failures.map((x) => (x.message ?? x['#text'] ?? '').replace(/^\S+:\d+\n/, '')).join('\n'),
          passed: failures.length === 0,
        });
      }
    }
  }
  return out;
}

/** Where each TEST is defined, from the JSON that `--gtest_list_tests --gtest_output=json:<file>` writes (GoogleTest >= 1.10). */
export function parseGtestListing(json: string): Map<string, { file: string; line: number }> {
  const out = new Map<string, { file: string; line: number }>();
  const doc = JSON.parse(json) as {
    testsuites?: Array<{ name: string; testsuite?: Array<{ name: string; file?: string; line?: number }> }>;
  };
  for (const suite of doc.testsuites ?? []) {
    for (const t of suite.testsuite ?? [])
      if (t.file && t.line) out.set(`${suite.name}.${t.name}`, { file: t.file, line: t.line });
  }
  return out;
}

/** `[  FAILED  ] Suite.Case` lines of a gtest transcript (a whole binary registered as one CTest entry). */
export function failedGtestCases(output: string): string[] {
  const names = new Set<string>();
  for (const m of output.matchAll(/^\[ {2}FAILED {2}\] ([\w/]+\.[\w/]+)(?:, where .*)?(?: \(\d+ ms\))?$/gm))
    names.add(m[1]!);
  return [...names];
}

export interface TranscriptFailure {
  /** Where the first failure is, unless it has no location (an uncaught exception). */
  file?: string;
  line?: number;
  message: string;
}

/**
 * The failures of each test of a gtest transcript, in the shape of its XML report: each
 * `file:line: Failure` (or `unknown file: Failure` for an exception) block's text, joined, and the
 * first block's location. Output the test prints between two failure blocks stays in the text; the
 * XML report would have left it out.
 */
export function gtestTranscriptFailures(output: string): Map<string, TranscriptFailure> {
  const out = new Map<string, TranscriptFailure>();
  for (const test of output.matchAll(
    /^\[ RUN {6}\] (.*)\n([\s\S]*?)(?=^\[ {2}FAILED {2}\] |^\[ RUN {6}\] |(?![\s\S]))/gm,
  )) {
    const body = test[2]!;
    const headers = [...body.matchAll(/^(?:(.+?):(\d+)|unknown file): Failure$/gm)];
    if (headers.length === 0) continue;
    const texts = headers.map((h, i) =>
      body.slice(h.index + h[0].length + 1, headers[i + 1]?.index ?? body.length).trimEnd(),
    );
    const first = headers[0]!;
    out.set(test[1]!.trim(), {
      ...(first[1] ? { file: first[1], line: Number(first[2]) } : {}),
      message: texts.join('\n'),
    });
  }
  return out;
}

/** The failures of a one-test transcript (what a gtest_discover_tests entry prints). */
export function transcriptFailure(output: string): TranscriptFailure | undefined {
  return gtestTranscriptFailures(output).values().next().value;
}

/** Unity's `file:line:test:FAIL: message` lines. */
export function unityFailures(
  output: string,
): Array<{ file: string; line: number; name: string; message: string }> {
  return [...output.matchAll(/^(.+?):(\d+):(\w+):FAIL:?\s*(.*)$/gm)].map((m) => ({
    file: m[1]!,
    line: Number(m[2]),
    name: m[3]!,
    message: m[4] ?? '',
  }));
}

const LIMIT = 100 * 1024;

/** Messages over 100 KB keep the failure lines, the head and the tail. */
export function trimMessage(text: string): string {
  if (text.length <= LIMIT) return text;
  const failures = text
    .split('\n')
    .filter((l) => /Failure|FAILED|error|Expected|Which is|Value of|ERROR|FAIL/.test(l))
    .slice(0, 200)
    .join('\n');
  return `${text.slice(0, 20_000)}\n[... ${text.length - 60_000} characters trimmed by suture; failure lines follow ...]\n${failures.slice(0, 20_000)}\n[...]\n${text.slice(-20_000)}`;
}

/**
 * What a sanitizer's error report says went wrong (`AddressSanitizer: heap-buffer-overflow`,
 * `LeakSanitizer: detected memory leaks`), without its addresses. The sanitizer ends the test with
 * exit code 1, so CTest calls it failed, but it stopped the program as a crash does.
 */
export function sanitizerError(output: string): string | undefined {
  return /^==\d+==ERROR: (\w+Sanitizer: .+?)(?: on (?:unknown )?address\b.*)?$/m.exec(output)?.[1];
}

// `#0 0x55e6 in last(std::vector<int> const&, int) /src/buffer.cpp:4:10`: the name may hold spaces, the file is the last word
const SANITIZER_FRAME = /^\s*#\d+ 0x[0-9a-f]+ in (.+) (\S+?):(\d+)(?::\d+)?$/gm;
// the sanitizer's own interceptors, the C library and the standard headers are not where the project went wrong
const RUNTIME = /^\/usr\/|\/libsanitizer\/|\/compiler-rt\/|^\.\.\/(?:sysdeps|csu)\//;

/**
 * The faulting frame of a sanitizer report or a backtrace, when the output has one. In a sanitizer
 * report it is the first frame of the first stack (the bad access; the later stacks say where the
 * memory came from) that is not in the runtime.
 */
export function faultingFrame(output: string): { file: string; line: number; fn?: string } | undefined {
  const stack = output.split(/\n[ \t]*\n/).find((block) => /^\s*#0 0x[0-9a-f]+ in /m.test(block));
  const frames = [...(stack ?? '').matchAll(SANITIZER_FRAME)].map((m) => ({
    fn: m[1]!,
    file: m[2]!,
    line: Number(m[3]),
  }));
  const frame = frames.find((f) => !RUNTIME.test(f.file)) ?? frames[0];
  if (frame) return frame;
  const gdb = /#\d+ .* in (\S+) \(.*\) at (\S+):(\d+)/.exec(output);
  if (gdb) return { fn: gdb[1]!, file: gdb[2]!, line: Number(gdb[3]) };
  return undefined;
}
