import { runProcess, type RunContext, type RunResultInput, type TestResult } from '@suture/core';
import type { ResolvedChecksOptions } from './options.js';
import { readChecks } from './parse.js';

const TAIL = 64 * 1024;

/** Runs the project's checks (or the selected ones), one process each, within one time limit. */
export async function runChecks(options: ResolvedChecksOptions, ctx: RunContext): Promise<RunResultInput> {
  const started = Date.now();
  const { checks, diagnostics } = await readChecks(ctx.root, options.dir);
  const selected = ctx.selection !== undefined;
  const base = { command: `${options.shell} ${options.dir}/*.checks`, selected, diagnostics };
  // A checks file that does not parse stops the run, as a build error would: nothing ran.
  if (diagnostics.length > 0)
    return { ...base, status: 'failed', tests: [], exitCode: null, durationMs: Date.now() - started };

  const tests: TestResult[] = [];
  let output = '';
  let status: RunResultInput['status'] = 'passed';
  for (const check of checks.filter((c) => !ctx.selection || ctx.selection.includes(c.id))) {
    const left = ctx.timeoutMs - (Date.now() - started);
    if (ctx.signal.aborted || left <= 0) {
      status = ctx.signal.aborted ? 'error' : 'timeout';
      break;
    }
    // runProcess starts the shell in a process group of its own and kills the whole group at the
    // time limit or when the signal fires, so a check's children cannot outlive the run.
    const proc = await runProcess(options.shell, ['-c', check.command], {
      cwd: ctx.root,
      env: { ...process.env, ...options.env },
      timeoutMs: left,
      signal: ctx.signal,
      tailBytes: TAIL,
    });
    if (proc.spawnError)
      return {
        ...base,
        status: 'error',
        tests: [],
        exitCode: null,
        durationMs: Date.now() - started,
        error: `cannot start ${options.shell}: ${proc.spawnError}; install a POSIX shell or set the runner option "shell"`,
      };
    output = `${output}$ ${check.command}\n${proc.output}`.slice(-TAIL);
    const test: TestResult = {
      id: check.id,
      name: check.name,
      file: check.file,
      line: check.line,
      status: proc.timedOut ? 'timeout' : proc.aborted ? 'error' : proc.exitCode === 0 ? 'passed' : 'failed',
      durationMs: proc.durationMs,
    };
    if (test.status !== 'passed') {
      test.message = proc.timedOut
        ? `did not finish within ${ctx.timeoutMs} ms`
        : `exit code ${proc.exitCode ?? proc.signal}: ${proc.output.trim().split('\n').pop() ?? ''}`;
      test.trace = `$ ${check.command}\n${proc.output}`.slice(-8000);
    }
    tests.push(test);
    ctx.onTestResult?.(test);
    if (proc.timedOut || proc.aborted) {
      status = proc.timedOut ? 'timeout' : 'error';
      break;
    }
    if (test.status !== 'passed') status = 'failed';
  }
  return {
    ...base,
    status,
    tests,
    exitCode: status === 'passed' ? 0 : 1,
    durationMs: Date.now() - started,
    outputTail: output,
    ...(status === 'error' ? { error: 'the run was aborted' } : {}),
    ...(status === 'timeout' ? { error: `killed at the time limit of ${ctx.timeoutMs} ms` } : {}),
  };
}
