import { mkdtemp } from 'node:fs/promises';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { runProcess, type RunContext, type TestResult } from '@suture/core';
import { BoundedText } from './bounded-text.js';
import { buildEnv } from './build.js';
import { STUCK_HEADER } from './ctest-output.js';
import { CtestStream, type EntryEnd } from './ctest-stream.js';
import type { Listing, ListingCache } from './gtest-listing.js';
import { reportEnv } from './gtest-report.js';
import { GtestStream, type CaseEnd } from './gtest-stream.js';
import { killTestProcess, testProcessRunning } from './kill-test.js';
import { killLeftoverHelpers } from './leftover-helpers.js';
import { familyOf, runLimitHint, timeoutMessage, type Family, type TestLimit } from './limits.js';
import type { ResolvedCtestOptions } from './options.js';
import { binaryCommand, type Registered, type Registry } from './registry.js';
import { endedEarly, unfinished } from './unfinished.js';
import { unityEndedEarly } from './unity-exit.js';
import { caseId, caseResult, entryResults, stoppedResult, type Stop } from './results.js';

export interface PassInput {
  options: ResolvedCtestOptions;
  ctx: RunContext;
  buildDir: string;
  /** Arguments that select entries (`-R`), empty for the whole suite. */
  select: string[];
  /** GTEST_FILTER for the one whole binary whose cases this pass runs. */
  gtestFilter?: string;
  /** The cases of a whole binary to report (a selection); others that run are left out. */
  onlyCases?: ReadonlySet<string>;
  /** When the run's wall-clock limit ends (epoch ms). */
  deadline: number;
  registry: Promise<Registry>;
  listings: ListingCache;
  /** The limit of `id`, of `family`, that started at `since`. */
  limitFor(id: string, family: Family | undefined, since: number): TestLimit;
  /** Called when the runner stops a test at its limit. */
  onHang(id: string, family: Family | undefined, limit: TestLimit, at: number): void;
  /** Called with each result as it is known, in the order of `tests`. */
  emit(test: TestResult): void;
}

export interface PassOutcome {
  tests: TestResult[];
  output: string;
  command: string;
  exitCode: number | null;
  timedOut: boolean;
  aborted: boolean;
  spawnError?: string;
  noTests: boolean;
  /** Whole binaries stopped before their end: the cases each finished or was stopped in. */
  cut: Map<string, string[]>;
  /** Where the GoogleTest programs of the pass wrote their own reports. */
  reportDir: string;
}

const DISABLED = /(?:^|[./])DISABLED_/;

interface EntryRun {
  name: string;
  startedAt: number;
  output: BoundedText;
  gtest: GtestStream;
  /** The project sets a TIMEOUT on it: CTest enforces that one. */
  declared: boolean;
  /** Tries to find and kill its process; `stopping` while one is under way or after giving up. */
  attempts: number;
  stopping: boolean;
  killed?: { limit: TestLimit; running?: string; backtrace?: string };
  /** When the runner last looked whether its test process had ended while CTest still waits. */
  checkedAt?: number;
  /** The run's wall-clock limit ended it. */
  cutByRun?: boolean;
  info?: Promise<EntryInfo>;
}

interface EntryInfo {
  reg: Registered | undefined;
  listing: Listing;
  /** A whole binary whose cases are reported one by one. */
  split: boolean;
}

/**
 * One `ctest -V` run, read while it runs: each result is reported as it ends, and a test past its
 * limit is stopped (the process of its entry killed) while the other entries go on. CTest's own
 * `--timeout` is set past the run's end, so only a TIMEOUT the project declares is CTest's to
 * enforce; every other limit is this runner's, per entry or per GoogleTest case.
 */
export async function runPass(input: PassInput): Promise<PassOutcome> {
  const { options, ctx } = input;
  const backstopS = Math.ceil((input.deadline - Date.now()) / 1000) + 1;
  let registry: Registry | undefined;
  // Nothing is awaited before CTest starts: the registry and the listings come while it runs.
  const registryReady = input.registry.then(async (r) => {
    const known = await input.listings.known();
    registry = r;
    // listed while the tests run: the listings only read the binaries
    for (const reg of r.values())
      if (reg.gtestName) void input.listings.list(binaryCommand(reg.command));
      else if (known.has(reg.command.join('\0'))) void input.listings.list(reg.command);
    return r;
  });
  const info = (e: EntryRun): Promise<EntryInfo> =>
    (e.info ??= registryReady.then(async (r) => {
      const reg = r.get(e.name);
      const split = e.gtest.seen && !reg?.gtestName && !reg?.ownVerdict;
      const command = !reg
        ? undefined
        : reg.gtestName
          ? binaryCommand(reg.command)
          : e.gtest.seen
            ? reg.command
            : undefined;
      return { reg, split, listing: command ? await input.listings.list(command) : new Map() };
    }));

  const tests: TestResult[] = [];
  let chain: Promise<unknown> = Promise.resolve();
  const report = (e: EntryRun, make: (i: EntryInfo) => TestResult[] | Promise<TestResult[]>): void => {
    chain = chain.then(async () => {
      for (const t of await make(await info(e))) {
        tests.push(t);
        input.emit(t);
      }
    });
  };
  const running = new Map<number, EntryRun>();
  const cut = new Map<string, string[]>();
  const root = ctx.root;

  // CTest's and GoogleTest's own words that a test failed come before its result can be told
  // (the registry and the binary's listing may still be read): the engine hears of it at once.
  const failing = (status: string): void => {
    if (status !== 'passed' && status !== 'skipped') ctx.onFailing?.();
  };

  const caseEnded = (e: EntryRun, kase: CaseEnd): void => {
    if (input.onlyCases && !input.onlyCases.has(kase.name)) return;
    failing(kase.status);
    report(e, (i) => (i.split ? [caseResult(root, e.name, kase, i.listing.get(kase.name))] : []));
  };

  const entryEnded = (e: EntryRun, end: EntryEnd): void => {
    const inCase = e.killed && !e.cutByRun ? e.killed.running : e.gtest.current?.name;
    const ended = [...e.gtest.ended.keys()];
    report(e, (i) => {
      // where a test stopped at its limit was stuck, for the analyzer to start from
      const stuck = e.killed?.backtrace ? `\n${STUCK_HEADER}\n${e.killed.backtrace}\n` : '';
      const output = e.output.toString() + stuck;
      const stop = stopOf(options, e, end, i.reg, ctx.timeoutMs);
      if (!i.split) {
        const defined = i.reg?.gtestName ? i.listing.get(i.reg.gtestName) : undefined;
        const timeout = stop?.status === 'timeout' ? stop.reason : undefined;
        const results = unfinished(
          entryResults(root, end, output, i.reg?.gtestName, defined, timeout),
          inCase,
          end,
        );
        // a GoogleTest case is proven by its own result line; a Unity program by its summary
        return i.reg?.gtestName ? results : unityEndedEarly(results, output, end, i.reg?.command);
      }
      // a case that started and never printed its result did not pass, whatever the exit code
      if (stop || inCase) {
        if (!i.reg?.gtestFilter) cut.set(e.name, inCase ? [...ended, inCase] : ended);
        if (inCase && input.onlyCases && !input.onlyCases.has(inCase)) return [];
        const why: Stop = stop ?? { status: 'crashed', reason: endedEarly(end) };
        return [stoppedResult(root, e.name, inCase, why, output, inCase ? i.listing.get(inCase) : undefined)];
      }
      // GoogleTest lists DISABLED_ cases and runs none of them: skipped, as its XML report says
      const disabled = [...i.listing]
        .filter(([c]) => DISABLED.test(c) && !e.gtest.ended.has(c) && (input.onlyCases?.has(c) ?? true))
        .map(([c, at]) => caseResult(root, e.name, { name: c, status: 'skipped', transcript: '' }, at));
      // the program failed without a failing case (a leak report at exit, a global tear-down)
      const caseFailed = [...e.gtest.ended.values()].includes('failed');
      if ((end.status === 'failed' && !caseFailed) || end.status === 'notrun')
        return [...disabled, ...entryResults(root, end, output, undefined, undefined, undefined)];
      return disabled;
    });
  };

  const stream = new CtestStream({
    onStart: (k, name) => {
      const now = Date.now();
      running.set(k, {
        name,
        startedAt: now,
        output: new BoundedText(),
        gtest: new GtestStream(now),
        declared: false,
        attempts: 0,
        stopping: false,
      });
    },
    onTimeout: (k, seconds) => {
      const e = running.get(k);
      if (e) e.declared = seconds !== backstopS;
    },
    onOutput: (k, line) => {
      const e = running.get(k);
      if (!e) return;
      e.output.push(line);
      const kase = e.gtest.line(line);
      if (kase) caseEnded(e, kase);
    },
    onEnd: (end) => {
      const e = running.get(end.number) ?? {
        name: end.name,
        startedAt: Date.now(),
        output: new BoundedText(),
        gtest: new GtestStream(),
        declared: false,
        attempts: 0,
        stopping: false,
      };
      running.delete(end.number);
      failing(end.status);
      entryEnded(e, end);
    },
  });

  const watchdog = setInterval(() => {
    const now = Date.now();
    for (const e of running.values()) {
      if (e.killed || e.declared || e.stopping) continue;
      const unit = unitOf(e, registry?.get(e.name), input);
      if (unit.limit.ms === null || now - unit.since <= unit.limit.ms) {
        if (now - Math.max(e.startedAt, e.checkedAt ?? 0) > ENDED_CHECK_MS) {
          e.checkedAt = now;
          void releaseEnded(e, registryReady, ctx, options.ctest);
        }
        continue;
      }
      void stopEntry(e, unit, registryReady, input);
    }
  }, 250);
  watchdog.unref();

  const jobs = String(options.testJobs ?? cpus().length);
  const args = [
    '--test-dir',
    input.buildDir,
    '-V',
    '-j',
    jobs,
    '--timeout',
    String(backstopS),
    ...input.select,
    ...options.ctestArgs,
  ];
  // each GoogleTest program writes its own report as it ends, checked against what it printed
  const reportDir = await mkdtemp(join(ctx.workDir, 'gtest-report-'));
  const r = await runProcess(options.ctest, args, {
    cwd: ctx.root,
    env: {
      ...buildEnv(),
      ...reportEnv(reportDir),
      ...(input.gtestFilter !== undefined ? { GTEST_FILTER: input.gtestFilter } : {}),
    },
    timeoutMs: Math.max(1, input.deadline - Date.now()),
    signal: ctx.signal,
    tailBytes: 256 * 1024,
    onOutput: (chunk) => stream.write(chunk),
  });
  stream.end();
  clearInterval(watchdog);
  // entries the run's wall-clock limit cut off never printed their end
  if (r.timedOut)
    for (const [k, e] of running)
      entryEnded({ ...e, cutByRun: true }, { number: k, name: e.name, status: 'timeout', detail: 'Timeout' });
  await chain;
  return {
    tests,
    output: r.output,
    command: r.command,
    exitCode: r.exitCode,
    timedOut: r.timedOut,
    aborted: r.aborted,
    ...(r.spawnError ? { spawnError: r.spawnError } : {}),
    noTests: /No tests were found/.test(r.output),
    cut,
    reportDir,
  };
}

interface Unit {
  id: string;
  family: Family | undefined;
  since: number;
  limit: TestLimit;
}

/** What is being timed in an entry: the case a whole binary is in, the gap between cases, or the entry. */
function unitOf(e: EntryRun, reg: Registered | undefined, input: PassInput): Unit {
  const binary = reg?.command[0];
  const unit = (id: string, since: number, gtestName?: string): Unit => {
    const family = binary === undefined ? undefined : familyOf(binary, gtestName);
    return { id, family, since, limit: input.limitFor(id, family, since) };
  };
  if (e.gtest.seen && !reg?.gtestName) {
    if (e.gtest.current)
      return unit(caseId(e.name, e.gtest.current.name), e.gtest.current.since, e.gtest.current.name);
    return unit(e.name, e.gtest.idleSince);
  }
  return unit(e.name, e.startedAt, reg?.gtestName);
}

/** How long an entry runs before the runner looks whether its test ended and a helper holds CTest. */
const ENDED_CHECK_MS = 1500;

/**
 * Stops the helpers a test that has ended left holding its output open, which CTest waits for.
 * Whether the entry's process still runs is checked first: a helper of a running test shares its
 * pipe and is spared anyway, but the look at every process costs more than the look for one.
 */
async function releaseEnded(
  e: EntryRun,
  registry: Promise<Registry>,
  ctx: RunContext,
  ctest: string,
): Promise<void> {
  const command = (await registry).get(e.name)?.command;
  if (!command || e.stopping || e.killed || (await testProcessRunning(command))) return;
  // the limit may have stopped it while the processes were read
  if (e.stopping || e.killed) return;
  if (await stopHelpers(e, ctx, ctest)) e.stopping = true;
}

/** Kills the helpers holding an ended entry's output open; whether there were any. */
async function stopHelpers(e: EntryRun, ctx: RunContext, ctest: string): Promise<boolean> {
  const helpers = await killLeftoverHelpers(ctest);
  if (helpers.length === 0) return false;
  ctx.logger.warn(
    `CTest entry ${e.name} ended but left ${helpers.length === 1 ? 'a process' : 'processes'} running that held its output open, which CTest waits for; suture stopped ${helpers.join('; ')}`,
  );
  // its pipe is closed now; CTest reports the end it was waiting for, so nothing is tried again
  return true;
}

async function stopEntry(
  e: EntryRun,
  unit: Unit,
  registry: Promise<Registry>,
  input: PassInput,
): Promise<void> {
  const { ctx } = input;
  const { ctest } = input.options;
  e.stopping = true;
  e.attempts++;
  const reg = (await registry).get(e.name);
  // a discovered entry is its one case: its id names it already
  const running = reg?.gtestName ? undefined : e.gtest.current?.name;
  const command = reg?.command;
  const killed = command ? await killTestProcess(command, process.pid, { backtrace: true }) : undefined;
  if (killed) {
    input.onHang(unit.id, unit.family, unit.limit, Date.now());
    e.killed = {
      limit: unit.limit,
      ...(running ? { running } : {}),
      ...(killed.backtrace ? { backtrace: killed.backtrace } : {}),
    };
    return;
  }
  // its process has ended, but CTest still waits for its output: a helper it left holds the pipe
  if (await stopHelpers(e, ctx, ctest)) return;
  // not found yet (just started, or gone): the next ticks try again, then the run's limit is left
  if (e.attempts < 20) e.stopping = false;
  else ctx.logger.warn(`could not find the process of the CTest entry ${e.name} to stop it at its limit`);
}

/** Why an entry stopped before its end: the limit this runner applied, CTest's TIMEOUT, a crash. */
function stopOf(
  options: ResolvedCtestOptions,
  e: EntryRun,
  end: EntryEnd,
  reg: Registered | undefined,
  runLimitMs: number,
): Stop | undefined {
  // a discovered entry is its one case: its id names it already
  const running = reg?.gtestName ? undefined : e.gtest.current?.name;
  if (e.cutByRun) {
    const where = running ? ` in the GoogleTest case ${running}` : '';
    return {
      status: 'timeout',
      reason: `killed at the wall-clock limit of the run (${runLimitMs} ms)${where}; ${runLimitHint}`,
    };
  }
  if (e.killed)
    return { status: 'timeout', reason: timeoutMessage(options, e.killed.limit, e.killed.running) };
  if (end.status === 'timeout') {
    const limit: TestLimit = {
      ms: reg?.timeoutS !== undefined ? reg.timeoutS * 1000 : null,
      source: 'declared',
    };
    return { status: 'timeout', reason: timeoutMessage(options, limit, running) };
  }
  if (end.status === 'crashed') return { status: 'crashed', reason: end.detail };
  return undefined;
}
