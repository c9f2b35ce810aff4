import type { Diagnostic, ProcessResult, RunContext, RunResultInput, TestResult } from '@suture/core';
import { EventFold } from './events.js';
import { CHOOSE_PYTHON, EXIT_NO_PYTEST, EXIT_STOPPED, pythonEnv, resolvePython } from './interpreter.js';
import { describeTimeout, testLimits, type DurationMemory } from './limits.js';
import type { ResolvedPytestOptions } from './options.js';
import { runSession } from './session.js';
import { leftRunning, missingResults, statusFromResults, unfinishedReason } from './session-end.js';

const EXIT_MEANING: Record<number, string> = {
  2: 'pytest was interrupted (exit code 2)',
  3: 'pytest hit an internal error (exit code 3)',
  4: 'pytest usage error (exit code 4)',
  5: 'pytest collected no tests (exit code 5)',
};
/** Each stuck or crashed test costs one more pytest process; past this many the rest is not run. */
const MAX_PROCESSES = 20;
const TAIL_CHARS = 256 * 1024;

function tailLines(text: string, n: number): string {
  return text.trimEnd().split('\n').slice(-n).join('\n');
}

/** The test that was running when pytest died under it (a segfault, os._exit in the test). */
function crashed(test: TestResult, proc: ProcessResult): void {
  const how = proc.signal ? `died of ${proc.signal}` : `exited with code ${proc.exitCode}`;
  test.status = 'crashed';
  test.message = `pytest ${how} while this test ran; the tests after it ran in a new pytest process`;
  test.trace = tailLines(proc.output, 60);
  test.details = { ...test.details, ...(proc.signal ? { signal: proc.signal } : {}) };
}

function shadowWarnings(fold: EventFold): Diagnostic[] {
  return fold.shadowed.map((s) => ({
    source: 'pytest-import',
    severity: 'warning',
    message: `the tests imported "${s.module}" from ${s.loaded}, not from the project's ${s.source}: an installed copy shadows the source, so the tests did not test it. Put the source first on the path (the runner option env: { "PYTHONPATH": "src" } for a src layout) or install the project in editable mode (pip install -e .)`,
    file: s.source,
    symbol: s.module,
    notes: [],
    fixIts: [],
    tests: [],
  }));
}

/** A test stopped at the shorter limit of a sibling of a test that reached its limit first. */
function stoppedAsSibling(test: TestResult): boolean {
  const timeout = test.details?.timeout as { source?: string } | undefined;
  return timeout?.source === 'sibling';
}

/** Why a test that hangs in a pytest-xdist worker runs until the run's limit, and what to do. */
function xdistMessage(workers: string, runLimitMs: number): string {
  return `pytest-xdist runs these tests in worker processes (-n ${workers}), which suture's per-test limit does not reach: a test that hangs there runs until the run's limit ("timeoutMs", ${runLimitMs} ms now). Give the project a limit of its own in the workers (pytest-timeout's --timeout), or run suture's runs without workers (the runner option "args": ["-n", "0"])`;
}

export async function runPytest(
  options: ResolvedPytestOptions,
  ctx: RunContext,
  memory: DurationMemory,
): Promise<RunResultInput> {
  const env = pythonEnv(process.env, options.env);
  const python = await resolvePython(ctx.root, options.python, env);
  const limits = testLimits(options, ctx.selection, memory);
  const fold = new EventFold(ctx.root, describeTimeout(options, limits));
  fold.onXdist = (workers) => ctx.logger.warn(xdistMessage(workers, ctx.timeoutMs));
  const started = Date.now();
  const stream = (test: TestResult): void => {
    try {
      ctx.onTestResult?.(test);
    } catch (error) {
      ctx.logger.debug(`onTestResult threw for ${test.id}: ${String(error)}`);
    }
  };
  const processes: ProcessResult[] = [];
  let interrupted = false;
  let restartLimit: number | undefined;
  for (let index = 1; ; index++) {
    fold.restart();
    const proc = await runSession(
      {
        python,
        root: ctx.root,
        workDir: ctx.workDir,
        index,
        args: [
          ...options.args,
          ...(ctx.selection ?? []),
          ...(ctx.exclude ?? []).map((file) => `--ignore=${file}`),
        ],
        env,
        limits,
        deselect: [...fold.tests.keys()],
        hung: [...fold.tests.values()].filter((t) => t.status === 'timeout').map((t) => t.id),
        timeoutMs: Math.max(1, ctx.timeoutMs - (Date.now() - started)),
        signal: ctx.signal,
        // a run that needs a second pytest process is not green: only the first one records
        ...(ctx.record && index === 1 ? { record: ctx.record } : {}),
      },
      fold,
      stream,
    );
    processes.push(proc);
    if (proc.spawnError || proc.timedOut || proc.aborted || fold.exitStatus !== undefined) break;
    const stuck = fold.stopped ?? fold.running;
    if (!stuck) break;
    interrupted = true;
    if (!fold.stopped && fold.running) {
      const test = fold.tests.get(fold.running)!;
      crashed(test, proc);
      fold.running = undefined;
      stream(test);
    }
    const left = (fold.collected ?? []).filter((id) => !fold.tests.has(id));
    if (left.length === 0) break;
    if (index >= MAX_PROCESSES) {
      ctx.logger.warn(`pytest was restarted ${MAX_PROCESSES} times; ${left.length} test(s) did not run`);
      restartLimit = MAX_PROCESSES;
      break;
    }
    ctx.logger.info(`pytest stopped at ${stuck}; running the ${left.length} test(s) left in a new process`);
  }
  const ran = [...fold.tests.values()];
  // a test cut off by the wall-clock limit has no duration to go by, nor one its own limit stopped;
  // nor one that failed: the time it took to fail says nothing of the time a pass takes once fixed.
  // One stopped at a sibling's shorter limit is not marked as cut: a re-run gives it its whole
  // limit again, so a slow test beside one that hangs is not held to the short limit for good.
  memory.record(
    ran.filter((t) => t.id !== fold.running && t.status === 'passed').map((t) => [t.id, t.durationMs ?? 0]),
    fold.setupMs.values(),
    ran.filter((t) => t.status === 'timeout' && !stoppedAsSibling(t)).map((t) => t.id),
  );
  const proc = processes[processes.length - 1]!;
  // pytest's list of what it collected, checked against what it reported: a session that ended
  // before sessionfinish fails the tests it never reported, whatever the exit code said
  const cut = proc.timedOut || proc.aborted ? undefined : leftRunning(fold);
  if (cut) stream(cut);
  const ended = unfinishedReason(proc, fold, restartLimit);
  const missing = ended ? missingResults(fold, ended) : [];
  for (const t of missing) stream(t);
  const tests = [...ran, ...missing];
  const diagnostics = [...fold.diagnostics, ...shadowWarnings(fold)];
  for (const d of diagnostics) if (d.severity === 'warning') ctx.logger.warn(d.message);
  // said when the workers started; kept for the report
  if (fold.xdistWorkers !== undefined)
    diagnostics.push({
      source: 'pytest-xdist',
      severity: 'warning',
      message: xdistMessage(fold.xdistWorkers, ctx.timeoutMs),
      notes: [],
      fixIts: [],
      tests: [],
    });

  const first = processes[0]!;
  const output = processes
    .map((p) => p.output)
    .join('\n[suture: pytest went on in a new process]\n')
    .slice(-TAIL_CHARS);
  const base = {
    command: first.command,
    durationMs: Date.now() - started,
    outputTail: output,
    exitCode: proc.exitCode,
    selected: ctx.selection !== undefined,
    ...(fold.collected ? { collected: new Set(fold.collected).size } : {}),
  };
  if (proc.spawnError) {
    return {
      ...base,
      status: 'error',
      tests: [],
      error: `cannot start ${python}: ${proc.spawnError}; install Python 3, or ${CHOOSE_PYTHON}`,
    };
  }
  if (proc.exitCode === EXIT_NO_PYTEST && tests.length === 0) {
    return {
      ...base,
      status: 'error',
      tests: [],
      error: `pytest is not installed for ${python}; install it with \`${python} -m pip install pytest\`, or ${CHOOSE_PYTHON}`,
    };
  }
  if (proc.timedOut || proc.aborted) {
    const why = proc.aborted
      ? 'the run was aborted'
      : `killed at the wall-clock limit of the run (${ctx.timeoutMs} ms; raise "timeoutMs" in the suture config, per project or at the top)`;
    const running = fold.running ? fold.tests.get(fold.running) : undefined;
    if (running) {
      running.status = 'timeout';
      running.message = `${why} while this test was running`;
      running.trace = tailLines(proc.output, 60);
      stream(running);
    }
    return {
      ...base,
      status: 'timeout',
      tests,
      diagnostics,
      error: running ? `${why} while running ${running.id}` : why,
    };
  }
  const code = proc.exitCode ?? -1;
  if (interrupted && tests.length > 0) {
    return { ...base, exitCode: first.exitCode, status: 'failed', tests, diagnostics };
  }
  // an exit code a finished session gives, from a session that did not finish
  if (ended && (code === 0 || code === 1) && !fold.collected)
    return {
      ...base,
      status: 'error',
      tests,
      diagnostics,
      error: `${ended}; it ended before pytest had collected the tests:\n${tailLines(proc.output, 15)}`,
    };
  if (code === 0 || (ended && code === 1))
    return { ...base, status: statusFromResults(tests, diagnostics, fold.collected), tests, diagnostics };
  const errors = fold.diagnostics.length > 0;
  if (code === 1 || (code === 2 && (tests.length > 0 || errors)) || (code === 5 && errors)) {
    return { ...base, status: 'failed', tests, diagnostics };
  }
  const meaning =
    EXIT_MEANING[code] ??
    (code === EXIT_STOPPED
      ? 'pytest was stopped by the per-test limit outside any test'
      : proc.signal
        ? `pytest was killed by ${proc.signal}`
        : `pytest exited with code ${code}`);
  return {
    ...base,
    status: 'error',
    tests,
    diagnostics,
    error: `${meaning}:\n${tailLines(proc.output, 15)}`,
  };
}
