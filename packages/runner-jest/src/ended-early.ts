import { relative } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import type { Diagnostic, TestResult } from '@suture/core';
import { distinctNames, testId } from './ids.js';
import { suiteKey, type PassResult } from './pass.js';
import { testResultOf } from './results.js';

/** V8's last words when a heap limit is reached: `FATAL ERROR: Reached heap limit ... JavaScript heap out of memory`. */
const OUT_OF_MEMORY = /^FATAL ERROR: .*JavaScript heap out of memory.*$/m;

/**
 * What V8 printed when the process ran out of memory: its fatal line and the JavaScript stack
 * when it printed one; the garbage collections (addresses, timings) and the native stack left out.
 */
export function outOfMemory(output: string): { line: string; report: string } | undefined {
  const plain = stripVTControlCharacters(output);
  const fatal = OUT_OF_MEMORY.exec(plain);
  if (!fatal) return undefined;
  const start = plain.lastIndexOf('<--- JS stacktrace --->', fatal.index);
  const native = plain.indexOf('----- Native stack trace -----', fatal.index);
  const report = plain.slice(start < 0 ? fatal.index : start, native < 0 ? undefined : native).trim();
  return { line: fatal[0].trim(), report: report.slice(0, 8_000) };
}

/**
 * What a Jest process that ended before Jest reported the end of its run leaves: each test file
 * it was running fails with the reason (a `process.exit(0)` in the code under test ends Jest with
 * exit code 0 and no word of the file it was in, nor of the files after it), and the tests that
 * ended in those files keep their results. Undefined when Jest's run completed.
 */
export function endedEarly(
  root: string,
  pass: PassResult,
): { tests: TestResult[]; diagnostics: Diagnostic[] } | undefined {
  if (pass.completed || pass.lingered || pass.proc.timedOut || pass.overdue.length > 0) return undefined;
  const how = pass.proc.signal
    ? `was killed by ${pass.proc.signal}`
    : `exited with code ${pass.proc.exitCode}`;
  const raw = stripVTControlCharacters(pass.proc.output).trimEnd().split('\n').slice(-40).join('\n');
  const diagnostic = (file: string | undefined, message: string): Diagnostic => ({
    source: 'jest-suite',
    severity: 'error',
    code: 'EndedEarly',
    ...(file ? { file } : {}),
    message,
    notes: [],
    fixIts: [],
    tests: [],
    raw,
  });
  const tests: TestResult[] = [];
  const oom = outOfMemory(pass.proc.output);
  const diagnostics = pass.openFiles.flatMap(({ file, project }) => {
    const shown = relative(root, file);
    const ended = pass.ended.get(suiteKey(file, project)) ?? [];
    const names = distinctNames(ended.map((a) => a.fullName));
    ended.forEach((a, i) =>
      tests.push(testResultOf(a, shown, a.location?.line ?? undefined, project, names[i])),
    );
    // a heap the running test filled: that test fails with V8's words, not its whole file
    const running = oom ? pass.running.filter((t) => t.file === file && t.project === project) : [];
    for (const t of running)
      tests.push({
        id: testId(shown, t.fullName, project),
        name: t.fullName,
        file: shown,
        status: 'crashed',
        message: `ran out of memory: ${oom!.line} (Jest's process was stopped by V8 while this test ran)`,
        trace: `${oom!.line}\nJest's process ran out of memory while the test "${t.fullName}" of ${shown} ran; the tests after it did not run.\n\n${oom!.report}`,
        details: { title: t.title ?? t.fullName, ancestorTitles: t.ancestorTitles, outOfMemory: true },
      });
    if (running.length > 0) return [];
    if (oom)
      return [
        diagnostic(
          shown,
          `Jest's process ran out of memory while ${shown} ran (${oom.line}), before Jest reported the file or the end of its run; the tests after that point, and the files Jest had not started, did not run`,
        ),
      ];
    return diagnostic(
      shown,
      `Jest's process ${how} while ${shown} ran, before Jest reported the file or the end of its run: something in it ended the process (process.exit in the code under test?); the tests after that point, and the files Jest had not started, did not run`,
    );
  });
  if (pass.openFiles.length === 0)
    diagnostics.push(
      diagnostic(
        undefined,
        `Jest's process ${oom ? `ran out of memory (${oom.line})` : how} before Jest reported the end of its run, between test files: the files it had not started did not run`,
      ),
    );
  return { tests, diagnostics };
}
