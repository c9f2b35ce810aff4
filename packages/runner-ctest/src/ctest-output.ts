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

/** Heads the backtrace of a test stopped at its time limit, in that test's output. */
export const STUCK_HEADER = 'suture: where the test was when it was stopped at its time limit (gdb):';
