import { relative } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import type { Diagnostic, TestResult } from '@suture/core';
import { suiteKey, type PassResult } from './pass.js';
import { testResultOf } from './results.js';

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
  const diagnostics = pass.openFiles.map(({ file, project }) => {
    const shown = relative(root, file);
    for (const a of pass.ended.get(suiteKey(file, project)) ?? [])
      tests.push(testResultOf(a, shown, a.location?.line ?? undefined, project));
    return diagnostic(
      shown,
      `Jest's process ${how} while ${shown} ran, before Jest reported the file or the end of its run: something in it ended the process (process.exit in the code under test?); the tests after that point, and the files Jest had not started, did not run`,
    );
  });
  if (diagnostics.length === 0)
    diagnostics.push(
      diagnostic(
        undefined,
        `Jest's process ${how} before Jest reported the end of its run, between test files: the files it had not started did not run`,
      ),
    );
  return { tests, diagnostics };
}
