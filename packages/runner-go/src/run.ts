import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import {
  runProcess,
  type ProcessResult,
  type RunContext,
  type RunResultInput,
  type TestResult,
} from '@suture/core';
import { setupError } from './build-output.js';
import { EventFold } from './events.js';
import { userGoEnv } from './go-env.js';
import { isAsked, packageArg, planSelection, quoteMeta } from './ids.js';
import { testLimit, type DurationMemory } from './limits.js';
import { projectModules } from './modules.js';
import type { ResolvedGoOptions } from './options.js';
import { locateTests } from './test-locations.js';
import { MARKER, Watchdog } from './watchdog.js';

const TAIL_CHARS = 256 * 1024;
/** A package whose binary was stopped under a stuck test runs its other tests again, at most this often. */
const MAX_RESTARTS = 5;

/** One `go test` process: its packages and patterns. */
interface Step {
  packages: string[];
  run?: string;
  skip?: string;
  restarts: number;
}

/** The environment of `go test`: the user's, the runner's options, and the shared build cache. */
async function goEnv(
  options: ResolvedGoOptions,
  marker: string,
): Promise<Record<string, string | undefined>> {
  const env: Record<string, string | undefined> = { ...process.env, ...options.env, [MARKER]: marker };
  env.GOTOOLCHAIN ??= 'local';
  if (options.shareBuildCache) {
    const user = await userGoEnv(options.go);
    // named explicitly, so the sandbox's private HOME and cache folder do not move them
    if (user?.GOCACHE && !options.env.GOCACHE) env.GOCACHE = user.GOCACHE;
    if (user?.GOMODCACHE && !options.env.GOMODCACHE) env.GOMODCACHE = user.GOMODCACHE;
  }
  return env;
}

function argv(options: ResolvedGoOptions, step: Step): string[] {
  return [
    'test',
    '-json',
    ...(options.args.some((a) => /^-?-count(?:=|$)/.test(a)) ? [] : ['-count=1']),
    ...options.args,
    ...(step.run ? ['-run', step.run] : []),
    ...(step.skip ? ['-skip', step.skip] : []),
    ...step.packages,
  ];
}

/** Feeds a process's output to the fold line by line. */
function lineFeeder(fold: EventFold): { write: (chunk: string) => void; end: () => void } {
  let rest = '';
  return {
    write(chunk) {
      const lines = (rest + chunk).split('\n');
      rest = lines.pop()!;
      for (const l of lines) fold.line(l);
    },
    end() {
      if (rest) fold.line(rest);
      rest = '';
    },
  };
}

/** The re-run of a package whose binary the watchdog stopped: its tests that did not report yet. */
function restartOf(fold: EventFold, step: Step, dir: string): Step | undefined {
  if (step.restarts >= MAX_RESTARTS) return undefined;
  const done = [...fold.tests.keys()]
    .filter((id) => id.startsWith(`${dir}::`) && !id.slice(dir.length + 2).includes('/'))
    .map((id) => id.slice(dir.length + 2));
  if (done.length === 0) return undefined;
  const skip = `^(?:${done.map(quoteMeta).join('|')})$`;
  return {
    packages: [packageArg(dir)],
    ...(step.run ? { run: step.run } : {}),
    skip,
    restarts: step.restarts + 1,
  };
}

export async function runGo(
  options: ResolvedGoOptions,
  ctx: RunContext,
  memory: DurationMemory,
): Promise<RunResultInput> {
  const started = Date.now();
  const marker = randomUUID();
  const env = await goEnv(options, marker);
  const modules = await projectModules(ctx.root);
  const stream = (test: TestResult): void => {
    try {
      ctx.onTestResult?.(test);
    } catch (error) {
      ctx.logger.debug(`onTestResult threw for ${test.id}: ${String(error)}`);
    }
  };
  const fold = new EventFold(ctx.root, modules, stream);
  const plan = ctx.selection ? planSelection(ctx.selection) : undefined;
  for (const id of plan?.unknown ?? []) ctx.logger.warn(`not a Go test id, not run: ${id}`);
  const steps: Step[] = plan
    ? plan.invocations.map((i) => ({ packages: [packageArg(i.dir)], run: i.run, restarts: 0 }))
    : [{ packages: options.packages, restarts: 0 }];
  const limitOf = testLimit(options, ctx.selection !== undefined, memory);
  const processes: ProcessResult[] = [];
  for (let step = steps.shift(); step; step = steps.shift()) {
    if (ctx.signal.aborted) break;
    const watchdog = new Watchdog(fold, marker, limitOf, (dir) => join(ctx.root, dir));
    const feed = lineFeeder(fold);
    fold.cut.clear();
    watchdog.start();
    const proc = await runProcess(options.go, argv(options, step), {
      cwd: ctx.root,
      env,
      timeoutMs: Math.max(1, ctx.timeoutMs - (Date.now() - started)),
      signal: ctx.signal,
      onOutput: (chunk) => feed.write(chunk),
    }).finally(() => watchdog.stop());
    feed.end();
    processes.push(proc);
    if (proc.spawnError || proc.timedOut || proc.aborted) break;
    for (const [dir] of fold.cut) {
      const again = [...fold.stopped.keys()].some((id) => id.startsWith(`${dir}::`))
        ? restartOf(fold, step, dir)
        : undefined;
      if (again) {
        ctx.logger.info(
          `a test of ${dir} was stopped at its time limit; running the package's other tests again`,
        );
        steps.push(again);
      }
    }
  }
  return finish(
    options,
    ctx,
    fold,
    processes,
    plan ? new Set(plan.invocations.flatMap((i) => i.ids)) : undefined,
    started,
    memory,
  );
}

async function finish(
  options: ResolvedGoOptions,
  ctx: RunContext,
  fold: EventFold,
  processes: ProcessResult[],
  asked: Set<string> | undefined,
  started: number,
  memory: DurationMemory,
): Promise<RunResultInput> {
  const last = processes.at(-1);
  const first = processes[0];
  const command =
    first?.command ?? [options.go, ...argv(options, { packages: options.packages, restarts: 0 })].join(' ');
  const base = {
    command,
    durationMs: Date.now() - started,
    outputTail: processes
      .map((p) => p.output)
      .join('\n[suture: go test went on in a new process]\n')
      .slice(-TAIL_CHARS),
    exitCode: last?.exitCode ?? null,
    selected: asked !== undefined,
  };
  if (!last)
    return { ...base, status: 'error', tests: [], error: 'the run was aborted before go test started' };
  if (last.spawnError)
    return {
      ...base,
      status: 'error',
      tests: [],
      error: `cannot start ${options.go}: ${last.spawnError}; install Go (https://go.dev/dl/, or apt-get install golang-go) and put it on PATH, or set the runner option "go" to its path`,
    };
  if (last.timedOut || last.aborted)
    fold.closeAll(
      last.aborted
        ? 'the run was aborted while this test was running'
        : `killed at the wall-clock limit of the run (${ctx.timeoutMs} ms; raise "timeoutMs" in the suture config) while this test was running`,
    );
  let tests = [...fold.tests.values()];
  if (asked) tests = tests.filter((t) => isAsked(t.id, asked));
  await locateTests(ctx.root, tests);
  memory.record(
    tests.filter((t) => !t.id.includes('/') && t.status !== 'timeout').map((t) => [t.id, t.durationMs ?? 0]),
  );
  const diagnostics = [...fold.diagnostics];
  const setup = setupError(ctx.root, ctx.root, fold.plain.join('\n'));
  if (setup && diagnostics.length === 0 && tests.length === 0) diagnostics.push(setup);
  if (last.timedOut || last.aborted)
    return {
      ...base,
      status: 'timeout',
      tests,
      diagnostics,
      error: last.aborted
        ? 'the run was aborted'
        : `killed at the wall-clock limit of the run (${ctx.timeoutMs} ms)`,
    };
  const bad = tests.some((t) => t.status !== 'passed' && t.status !== 'skipped');
  const errors = diagnostics.some((d) => d.severity === 'error');
  if (bad || errors || fold.failedBuilds.size > 0) return { ...base, status: 'failed', tests, diagnostics };
  if (last.exitCode !== 0 && tests.length === 0)
    return {
      ...base,
      status: 'error',
      tests,
      diagnostics,
      error: `go test exited with code ${last.exitCode} and reported no test:\n${fold.plain.slice(-15).join('\n') || last.output.slice(-2000)}`,
    };
  if (last.exitCode !== 0)
    return {
      ...base,
      status: 'failed',
      tests,
      diagnostics,
      error: `go test exited with code ${last.exitCode}:\n${fold.plain.slice(-15).join('\n')}`,
    };
  return { ...base, status: 'passed', tests, diagnostics };
}
