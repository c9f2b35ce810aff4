import { writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import type { Diagnostic, RunContext, RunResultInput, TestResult } from '@suture/core';
import {
  MAX_STOPPED,
  OUTPUT_TAIL_CHARS,
  cutShortResult,
  lingerNote,
  STACK_START,
  startRun,
  tail,
  wantedBy,
  type DurationMemory,
} from '@suture/runner-jest/js-runner';
import { displayCommand } from './command.js';
import type { VitestEvent } from './events.js';
import { TestNames, parseId } from './ids.js';
import { fileGapLimit, testLimit } from './limits.js';
import type { ResolvedVitestOptions } from './options.js';
import { runPass, type PassResult } from './pass.js';
import { planPass } from './plan.js';
import { foldEvents, testResultOf, unhandledDiagnostics } from './results.js';
import { setupFileSource } from './setup-file.js';
import { startChecks } from './start-checks.js';
import { lineFromEvents, stoppedResult } from './stopped.js';
import type { Overdue, WatchdogLimits } from './watchdog.js';

export type { DurationMemory };

/** What the passes of one run left: every event in order, what the limits stopped, and the last pass. */
interface Passes {
  events: VitestEvent[];
  stopped: Array<{ overdue: Overdue; events: VitestEvent[]; output: string }>;
  outputs: string[];
  last?: PassResult;
  cut?: 'time' | 'count';
}

/** The test files a pass has settled: ended, or failed to load. */
function endedFiles(events: readonly VitestEvent[]): Set<string> {
  const out = new Set<string>();
  for (const e of events) {
    if (e.event === 'file-end') out.add(e.file);
    if (e.event === 'run-end')
      for (const f of e.files) if (f.state !== 'pending' && f.state !== 'queued') out.add(f.file);
  }
  return out;
}

/**
 * Runs passes until the suite (or the selection) is settled: a test that hangs stops its pass,
 * and the next runs the test files that did not end, without the tests that hung.
 */
async function runPasses(
  ctx: RunContext,
  started: number,
  make: (
    n: number,
    spec: { remaining?: string[]; skipFiles: Set<string>; skipNames: Set<string> },
  ) => Promise<Parameters<typeof runPass>[0]>,
  onEvent: (e: VitestEvent) => void,
): Promise<Passes> {
  const out: Passes = { events: [], stopped: [], outputs: [] };
  const skipFiles = new Set<string>();
  const skipNames = new Set<string>();
  let all: string[] | undefined;
  let remaining: string[] | undefined;
  for (let n = 1; ; n++) {
    const timeoutMs = started + ctx.timeoutMs - Date.now();
    if (out.last && ctx.signal.aborted) break;
    if (timeoutMs <= 0) {
      out.cut = 'time';
      break;
    }
    const input = await make(n, { ...(remaining ? { remaining } : {}), skipFiles, skipNames });
    if (input.plan.files?.length === 0) break;
    const pass = await runPass({ ...input, timeoutMs, onEvent });
    out.last = pass;
    out.events.push(...pass.events);
    out.outputs.push(pass.proc.output);
    if (pass.overdue.length === 0) break;
    const first = pass.events.find((e) => e.event === 'run-start');
    all ??= first?.event === 'run-start' ? first.files.map((f) => f.file) : undefined;
    for (const f of endedFiles(pass.events)) skipFiles.add(f);
    for (const o of pass.overdue) {
      out.stopped.push({ overdue: o, events: pass.events, output: pass.proc.output });
      if (o.kind === 'test') skipNames.add(o.test.names.join(' > '));
      else skipFiles.add(o.file);
    }
    if (!ctx.selection) remaining = (all ?? []).filter((f) => !skipFiles.has(f));
    if (out.stopped.length >= MAX_STOPPED) {
      out.cut = 'count';
      break;
    }
  }
  return out;
}

export async function runVitest(
  options: ResolvedVitestOptions,
  ctx: RunContext,
  memory: DurationMemory = new Map(),
): Promise<RunResultInput> {
  const { started, base, fail } = startRun(ctx, 'vitest run');
  const env = { ...process.env, ...options.env };
  const start = await startChecks(ctx.root, options.vitestDir, env);
  if ('error' in start) return fail(start.error);
  const { vitest, node } = start;
  const selection = ctx.selection?.map(parseId);
  const command = displayCommand(ctx.root, options, vitest.bin, selection);
  const setupFile = join(ctx.workDir, 'suture-vitest-setup.mjs');
  const names = new TestNames();
  const limits = (): WatchdogLimits => ({
    test: (t) => {
      const last = selection ? memory.get(names.id(ctx.root, t)) : undefined;
      return testLimit({
        ...(options.testTimeoutMs !== undefined ? { option: options.testTimeoutMs } : {}),
        ...(t.timeout !== undefined ? { vitestTimeout: t.timeout } : {}),
        ...(last != null ? { lastDurationMs: last } : {}),
        stoppedBefore: last === null,
      });
    },
    fileGap: () => fileGapLimit(options.testTimeoutMs),
  });
  const wanted = wantedBy(ctx.selection, (id) => parseId(id).file);
  const delivered = new Set<string>();
  const deliver = (t: TestResult): void => {
    if (!ctx.onTestResult || delivered.has(t.id) || !wanted(t)) return;
    delivered.add(t.id);
    try {
      ctx.onTestResult(t);
    } catch {
      // a listener's failure is not the run's
    }
  };
  const passes = await runPasses(
    ctx,
    started,
    async (n, spec) => {
      const events = join(ctx.workDir, `vitest-events-${n}.jsonl`);
      const stacksDir = join(ctx.workDir, `stacks-${n}`);
      await writeFile(
        setupFile,
        setupFileSource(vitest.index, events, { start: STACK_START, dir: stacksDir }),
      );
      return {
        plan: planPass(
          ctx.root,
          options,
          { vitestBin: vitest.bin, vitestNode: vitest.node, events, setupFile },
          {
            ...(selection ? { selection } : {}),
            ...spec,
          },
        ),
        planFile: join(ctx.workDir, `vitest-plan-${n}.json`),
        stacksDir,
        node,
        cwd: ctx.root,
        env,
        timeoutMs: 0,
        signal: ctx.signal,
        limits: limits(),
        onEvent: () => undefined,
      };
    },
    (e) => {
      names.observe(e);
      if (e.event === 'test-end') deliver(testResultOf(e, ctx.root, names));
    },
  );
  const last = passes.last;
  if (!last)
    return fail(`the run's time limit of ${ctx.timeoutMs} ms had passed before Vitest started`, command);
  return finish(ctx, { started, base, command, passes, last, wanted, deliver, memory, names });
}

interface Finish {
  started: number;
  base: { selected: boolean };
  command: string;
  passes: Passes;
  last: PassResult;
  wanted: (t: TestResult) => boolean;
  deliver: (t: TestResult) => void;
  memory: DurationMemory;
  names: TestNames;
}

/** The run's result from what its passes reported. */
function finish(ctx: RunContext, f: Finish): RunResultInput {
  const { passes, last } = f;
  const output = passes.outputs.join('\n').slice(-OUTPUT_TAIL_CHARS);
  const folded = foldEvents(passes.events, ctx.root);
  const diagnostics: Diagnostic[] = [
    ...folded.diagnostics,
    ...unhandledDiagnostics([...last.events], ctx.root),
  ];
  let tests = folded.tests;
  const stoppedIds = new Set<string>();
  for (const s of passes.stopped) {
    const r = stoppedResult(ctx.root, s.overdue, s.events, s.output, f.names);
    if (r.test) tests = [...tests.filter((t) => t.id !== r.test!.id), r.test];
    if (r.test) stoppedIds.add(r.test.id);
    if (r.diagnostic) diagnostics.push(r.diagnostic);
  }
  const kept = tests.filter(f.wanted);
  for (const t of kept) f.deliver(t);
  for (const t of kept) {
    if (stoppedIds.has(t.id)) {
      if (!f.memory.has(t.id)) f.memory.set(t.id, null);
    } else if (t.durationMs !== undefined) f.memory.set(t.id, t.durationMs);
  }
  const common = {
    ...f.base,
    command: f.command,
    durationMs: Date.now() - f.started,
    outputTail: last.lingered
      ? lingerNote(output, 'Vitest', "Vitest's --teardownTimeout and hanging-process reporter find it")
      : output,
    exitCode: last.exitCode,
  };
  if (last.proc.timedOut || ctx.signal.aborted || passes.cut) {
    const running = last.running[0];
    const file = running && relative(ctx.root, running.file);
    return cutShortResult(
      common,
      kept,
      diagnostics,
      {
        aborted: ctx.signal.aborted,
        timedOut: last.proc.timedOut,
        cut: passes.cut,
        stopped: passes.stopped.length,
        timeoutMs: ctx.timeoutMs,
      },
      running && {
        id: f.names.id(ctx.root, running),
        name: running.names.join(' > '),
        file: file!,
        line: lineFromEvents(last.events, running),
      },
    );
  }
  const started = passes.events.some((e) => e.event === 'run-start');
  if (!started && kept.length === 0) {
    const plain = stripVTControlCharacters(last.proc.output);
    const setup = /^\[suture\] (cannot start Vitest: .*)$/m.exec(plain)?.[1];
    if (setup) return { ...common, status: 'error', tests: [], diagnostics, error: setup };
    const what = last.proc.spawnError
      ? `cannot start node: ${last.proc.spawnError}`
      : /No test files found/.test(plain)
        ? 'Vitest found no test file to run'
        : 'Vitest stopped before it reported any test file';
    return { ...common, status: 'error', tests: [], diagnostics, error: `${what}:\n${tail(plain, 25)}` };
  }
  const ended = passes.events.some((e) => e.event === 'run-end');
  if (!ended)
    diagnostics.push({
      source: 'vitest-run',
      severity: 'error',
      message: `Vitest ended before its run did (exit code ${last.proc.exitCode ?? last.proc.signal}): a test or the code under test ended the process (process.exit), or it crashed`,
      notes: [],
      fixIts: [],
      tests: [],
      raw: tail(output, 40),
    });
  const failed = kept.some((t) => t.status !== 'passed' && t.status !== 'skipped') || diagnostics.length > 0;
  if (!failed && kept.length === 0)
    return {
      ...common,
      status: 'error',
      tests: kept,
      diagnostics,
      error: `Vitest ran no test${ctx.selection ? ' matching the selection' : ''}:\n${tail(output, 10)}`,
    };
  return { ...common, status: failed ? 'failed' : 'passed', tests: kept, diagnostics };
}
