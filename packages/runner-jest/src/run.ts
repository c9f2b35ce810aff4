import { access } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import type { Diagnostic, RunContext, RunResultInput, TestResult } from '@suture/core';
import { endedEarly, outOfMemory } from './ended-early.js';
import { nodeFlags, usesNativeEsm } from './esm.js';
import { distinctNames, parseId, testId } from './ids.js';
import {
  MAX_STOPPED,
  OUTPUT_TAIL_CHARS,
  cutShortResult,
  lingerNote,
  startRun,
  tail,
  wantedBy,
  type DurationMemory,
} from './js-runner/run.js';
import { STACK_START, stuckReport } from './js-runner/stuck.js';
import { fileGapLimit, stoppedMessage, testLimit } from './limits.js';
import { liveResults } from './live.js';
import type { ResolvedJestOptions } from './options.js';
import { runPass, suiteKey, type PassResult } from './pass.js';
import { SiblingLimits, limitDetails } from './sibling-limits.js';
import { planPass } from './plan.js';
import { REPORTER, resolveJest } from './resolve-jest.js';
import { foldResults, testResultOf, type AssertionResult, type SuiteResult } from './results.js';
import { displayCommand } from './command.js';
import { FileFactsCache, locateTests } from './test-locations.js';
import type { Overdue, WatchdogLimits } from './watchdog.js';

export type { DurationMemory };

/**
 * Stops at a sibling's shorter limit that end the run, apart from `MAX_STOPPED`: a parametrized
 * test whose every case hangs costs its limit once and the re-run limit for each further case.
 */
const MAX_STOPPED_AT_SIBLING_LIMIT = 20;

/** A test or a test file stopped at its limit, as it goes into the result. */
function stoppedResult(
  root: string,
  o: Overdue,
  output: string,
  lineOf: (ancestors: readonly string[], title: string) => number | undefined,
): { test?: TestResult; diagnostic?: Diagnostic } {
  if (o.kind === 'test') {
    const file = relative(root, o.test.file);
    const line = o.test.title === undefined ? undefined : lineOf(o.test.ancestorTitles, o.test.title);
    const stuck = stuckReport(o.stuck);
    return {
      test: {
        id: testId(file, o.test.fullName, o.test.project),
        name: o.test.fullName,
        file,
        ...(line ? { line } : {}),
        status: 'timeout',
        durationMs: o.elapsedMs,
        // the trace is the test's own stack when it was stopped, never the output so far: that is
        // other tests' (Jest prints a test's own when its file ends), and their frames would place
        // this timeout in another file
        message: `${o.test.fullName} ${stoppedMessage(o.limit)}${stuck.sentence}`,
        ...(stuck.trace ? { trace: stuck.trace } : {}),
        details: { timeout: limitDetails(o.limit), ...stuck.details },
      },
    };
  }
  const file = relative(root, o.file);
  return {
    diagnostic: {
      source: 'jest-suite',
      severity: 'error',
      code: 'Timeout',
      file,
      message: o.startsReported
        ? `${file} ran ${o.elapsedMs} ms outside any test (its top-level code, a beforeAll or an afterAll) and was stopped at ${o.limitMs} ms; if it needs longer, raise the runner option "testTimeoutMs"`
        : `${file} ran ${o.elapsedMs} ms without a test ending${o.lastEnded === undefined ? '' : ` after "${o.lastEnded}"`} and was stopped at ${o.limitMs} ms: a test${o.lastEnded === undefined ? '' : ' after that one'}, its top-level code, a beforeAll or an afterAll (this Jest does not say when a test starts, so suture cannot name the test: Jest 29.6 and newer do); if it needs longer, raise the runner option "testTimeoutMs"`,
      notes: [],
      fixIts: [],
      tests: [],
      raw: tail(output, 40),
    },
  };
}

export async function runJest(
  options: ResolvedJestOptions,
  ctx: RunContext,
  memory: DurationMemory = new Map(),
): Promise<RunResultInput> {
  const { started, base, fail } = startRun(ctx, 'jest');
  const configured = options.jestBin && resolve(ctx.root, options.jestBin);
  if (
    configured &&
    !(await access(configured).then(
      () => true,
      () => false,
    ))
  )
    return fail(
      `the runner option "jestBin" names ${configured}, which does not exist: point it at the project's node_modules/jest/bin/jest.js, or remove it to use the Jest the project resolves`,
    );
  const jest = await resolveJest(ctx.root, options.jestBin);
  if (!jest)
    return fail(
      `Jest is not installed for ${ctx.root}: install it with \`npm install -D jest\` (or set the runner option "jestBin")`,
    );

  const selection = ctx.selection?.map(parseId);
  const env = { ...process.env, ...options.env };
  const esm = options.esm === 'auto' ? await usesNativeEsm(ctx.root) : options.esm;
  const flags = nodeFlags(esm, env.NODE_OPTIONS);
  const command = displayCommand(ctx.root, options, jest.script, flags, selection);
  const facts = new FileFactsCache();
  const siblings = new SiblingLimits(ctx.root, facts, options.rerunTimeoutMs);
  const limits: WatchdogLimits = {
    test: (test, jestTimeout) => {
      const { file, fullName, project } = test;
      const last = selection ? memory.get(testId(relative(ctx.root, file), fullName, project)) : undefined;
      const whole = testLimit({
        option: options.testTimeoutMs,
        jestTimeout,
        declared: facts.now(file)?.timeout,
        lastDurationMs: last ?? undefined,
        stoppedBefore: last === null,
      });
      return siblings.limit(test, whole);
    },
    fileGap: (file, jestTimeout) =>
      fileGapLimit({ option: options.testTimeoutMs, jestTimeout, declared: facts.now(file)?.timeout }),
  };
  const wanted = wantedBy(ctx.selection, (id) => parseId(id).file);
  const live = liveResults(ctx.root, facts, wanted, ctx.onTestResult);

  // Each pass runs what is left: a test that hangs stops its pass, and the next runs the test
  // files that did not end, without the tests that hung.
  const suites = new Map<string, SuiteResult>();
  /** What each limit stopped; a file stopped outside any test keeps the tests that ended in it. */
  const stopped: Array<{ overdue: Overdue; output: string; ended: AssertionResult[] }> = [];
  // the files another shard runs are settled before the first pass
  const skipFiles = new Set<string>(
    ctx.selection ? [] : (ctx.exclude ?? []).map((f) => resolve(ctx.root, f)),
  );
  const skipNames = new Set<string>();
  const outputs: string[] = [];
  let last: PassResult | undefined;
  /** Why files that did not end were not run again. */
  let cut: 'time' | 'count' | undefined;
  for (let n = 1; ; n++) {
    const remaining = started + ctx.timeoutMs - Date.now();
    const plan = planPass(
      ctx.root,
      options,
      {
        jestBin: jest.script,
        reporter: REPORTER,
        events: join(ctx.workDir, `jest-events-${n}.jsonl`),
        stacks: { start: STACK_START, dir: join(ctx.workDir, `stacks-${n}`) },
      },
      { ...(selection ? { selection } : {}), skipFiles, skipNames, again: n > 1 },
    );
    if (plan.files?.length === 0 || (last && ctx.signal.aborted)) break;
    if (remaining <= 0) {
      cut = 'time';
      break;
    }
    const pass = await runPass({
      plan,
      planFile: join(ctx.workDir, `jest-plan-${n}.json`),
      nodeFlags: flags,
      cwd: ctx.root,
      env,
      timeoutMs: remaining,
      signal: ctx.signal,
      limits,
      onEvent: (e) => {
        siblings.observe(e);
        live.onEvent(e);
      },
    });
    last = pass;
    outputs.push(pass.proc.output);
    for (const [key, suite] of pass.suites) {
      suites.set(key, suite);
      skipFiles.add(suite.name);
    }
    if (pass.overdue.length === 0) break;
    for (const name of siblings.stopped(pass, Date.now())) skipNames.add(name);
    for (const o of pass.overdue) {
      const ended = o.kind === 'file' ? (pass.ended.get(suiteKey(o.file, o.project)) ?? []) : [];
      stopped.push({ overdue: o, output: pass.proc.output, ended });
      if (o.kind === 'test') skipNames.add(o.test.fullName);
      else skipFiles.add(o.file);
    }
    // a stop at a sibling's shorter limit costs that limit, not a whole one: it counts apart
    const atSibling = stopped.filter((s) => s.overdue.kind === 'test' && s.overdue.limit.sibling).length;
    if (stopped.length - atSibling >= MAX_STOPPED || atSibling >= MAX_STOPPED_AT_SIBLING_LIMIT) {
      cut = 'count';
      break;
    }
  }
  if (!last)
    return fail(`the run's time limit of ${ctx.timeoutMs} ms had passed before Jest started`, command);

  const output = outputs.join('\n').slice(-OUTPUT_TAIL_CHARS);
  const json = { testResults: [...suites.values()] };
  const lineOf = await locateTests(json.testResults);
  const folded = foldResults(json, ctx.root, lineOf);
  const diagnostics = folded.diagnostics;
  let tests = folded.tests;
  for (const s of stopped) {
    const file = s.overdue.kind === 'test' ? s.overdue.test.file : s.overdue.file;
    const { lineOf: lineIn } = await facts.get(file);
    const r = stoppedResult(ctx.root, s.overdue, s.output, lineIn);
    if (r.test) tests = [...tests.filter((t) => t.id !== r.test!.id), r.test];
    if (r.diagnostic) diagnostics.push(r.diagnostic);
    const project = s.overdue.kind === 'file' ? s.overdue.project : undefined;
    const names = distinctNames(s.ended.map((a) => a.fullName));
    s.ended.forEach((a, i) => {
      const t = testResultOf(
        a,
        relative(ctx.root, file),
        a.location?.line ?? lineIn(a.ancestorTitles, a.title),
        project,
        names[i],
      );
      if (!tests.some((x) => x.id === t.id)) tests.push(t);
    });
  }
  tests = await siblings.withCarried(tests);
  const kept = tests.filter(wanted);
  await live.finish(kept);
  // the time of a test its limit stopped is not a duration: it keeps an earlier one, or is marked;
  // nor is the time of a failure, which says nothing of how long the test takes once fixed; one
  // stopped at a sibling's shorter limit is not marked, so a re-run gives it its whole limit
  for (const t of kept) {
    if (t.status === 'timeout') {
      if (!memory.has(t.id) && !siblings.stoppedShort.has(t.id)) memory.set(t.id, null);
    } else if (t.durationMs !== undefined && t.status === 'passed') memory.set(t.id, t.durationMs);
  }

  // the round ends once its results are located and folded, which is part of what it cost
  const common = {
    ...base,
    command,
    durationMs: Date.now() - started,
    outputTail: last.lingered ? lingerNote(output, 'Jest', "Jest's --detectOpenHandles finds it") : output,
    exitCode: last.exitCode,
  };
  if (last.proc.timedOut || ctx.signal.aborted || cut) {
    const running = last.running[0];
    return cutShortResult(
      common,
      kept,
      diagnostics,
      {
        aborted: ctx.signal.aborted,
        timedOut: last.proc.timedOut,
        cut,
        stopped: stopped.length,
        timeoutMs: ctx.timeoutMs,
      },
      running && {
        id: testId(relative(ctx.root, running.file), running.fullName, running.project),
        name: running.fullName,
        file: relative(ctx.root, running.file),
      },
    );
  }
  // a file that started and never ended is a failure of that file, even the first one
  const openEnded = !last.completed && last.openFiles.length > 0;
  if (suites.size === 0 && stopped.length === 0 && !openEnded) {
    const plain = stripVTControlCharacters(last.proc.output);
    const validation =
      /Validation Error|Unknown option|Unrecognized (?:CLI Parameter|option)|is not a valid|Error: Could not locate module|Can't find a root directory|Multiple configurations found|Option ".*" was replaced/.exec(
        plain,
      );
    const setup = /^\[suture\] (cannot start Jest: .*)$/m.exec(plain)?.[1];
    if (setup) return { ...common, status: 'error', tests: [], diagnostics, error: setup };
    const what = last.proc.spawnError
      ? `cannot start node: ${last.proc.spawnError}`
      : validation
        ? 'Jest configuration error'
        : last.proc.exitCode === 0 || /No tests found/.test(plain)
          ? 'Jest found no test to run'
          : outOfMemory(plain)
            ? `Jest ran out of memory before it started a test file (${outOfMemory(plain)!.line})`
            : 'Jest stopped before it reported any test file';
    return { ...common, status: 'error', tests: [], diagnostics, error: `${what}:\n${tail(plain, 25)}` };
  }
  // Jest's own word that its run ended, not the exit code: a process.exit(0) ends Jest mid-run
  const early = endedEarly(ctx.root, last);
  if (early) {
    for (const t of early.tests) if (wanted(t) && !kept.some((k) => k.id === t.id)) kept.push(t);
    diagnostics.push(...early.diagnostics);
  }
  const failed = kept.some((t) => t.status !== 'passed' && t.status !== 'skipped') || diagnostics.length > 0;
  if (!failed && kept.length === 0) {
    return {
      ...common,
      status: 'error',
      tests: kept,
      diagnostics,
      error: `Jest ran no test${selection ? ' matching the selection' : ''}:\n${tail(output, 10)}`,
    };
  }
  return { ...common, status: failed ? 'failed' : 'passed', tests: kept, diagnostics };
}

export function isInside(root: string, file: string): boolean {
  const rel = relative(root, isAbsolute(file) ? file : join(root, file));
  return !rel.startsWith('..') && !isAbsolute(rel);
}
