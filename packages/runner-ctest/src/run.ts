import { resolve } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { RunContext, RunResultInput, TestResult } from '@suture/core';
import { configureAndBuild } from './build.js';
import { runPass, type PassInput, type PassOutcome } from './ctest-pass.js';
import { crossCheckGtest } from './gtest-crosscheck.js';
import { ListingCache } from './gtest-listing.js';
import {
  HangMemory,
  remember,
  runLimitHint,
  siblingLimit,
  testLimit,
  type DurationMemory,
} from './limits.js';
import { noTestsHint } from './no-tests.js';
import type { ResolvedCtestOptions } from './options.js';
import { readRegistry, type Registry } from './registry.js';
import { exactNames, planSelection } from './selection.js';
import { caseOfCrashedEntry } from './unity-exit.js';

/** Entries per `ctest -R`: CTest's regular expressions are not made for thousands of names. */
const NAMES_PER_PASS = 100;
/** Re-runs of the rest of one stopped binary, each past one more stopped case. */
const MAX_CONTINUATIONS = 20;

type Base = Omit<PassInput, 'select'>;

/**
 * The rest of a whole GoogleTest binary that a limit or a crash stopped: its other cases run
 * again without the ones it already went through, so one hang or crash hides no other result.
 */
async function continueCut(
  base: Base,
  registry: Registry,
  entry: string,
  through: string[],
  only: ReadonlySet<string> | undefined,
): Promise<PassOutcome[]> {
  const passes: PassOutcome[] = [];
  const done = new Set(through);
  const reg = registry.get(entry);
  if (!reg) return passes;
  const listing = await base.listings.list(reg.command);
  for (let i = 0; i < MAX_CONTINUATIONS && Date.now() < base.deadline && !base.ctx.signal.aborted; i++) {
    const rest = [...(only ?? listing.keys())].filter((c) => !done.has(c));
    if (rest.length === 0 && (only || listing.size > 0)) break;
    const pass = await runPass({
      ...base,
      select: ['-R', exactNames([entry])],
      gtestFilter: only ? rest.join(':') : `*-${[...done].join(':')}`,
      ...(only ? { onlyCases: new Set(rest) } : {}),
    });
    passes.push(pass);
    const cut = pass.cut.get(entry);
    const fresh = cut?.filter((c) => !done.has(c)) ?? [];
    if (!cut || fresh.length === 0) break;
    for (const c of fresh) done.add(c);
  }
  return passes;
}

/** A selected entry whose cases were reported one by one: its own result, from theirs. */
function entryFromCases(id: string, tests: readonly TestResult[]): TestResult | undefined {
  const cases = tests.filter((t) => t.id.startsWith(`${id}::`));
  if (cases.length === 0) return undefined;
  const bad = cases.find((t) => t.status !== 'passed' && t.status !== 'skipped');
  return {
    id,
    name: id,
    status: bad ? bad.status : 'passed',
    durationMs: cases.reduce((n, t) => n + (t.durationMs ?? 0), 0),
    ...(bad ? { message: `${bad.name}: ${bad.message ?? bad.status}` } : {}),
  };
}

export async function runCtest(
  options: ResolvedCtestOptions,
  ctx: RunContext,
  memory: DurationMemory,
): Promise<RunResultInput> {
  const started = Date.now();
  const buildDir = resolve(ctx.root, options.buildDir);
  const build = await configureAndBuild(options, ctx, buildDir, started);
  const selected = ctx.selection !== undefined;
  if (!build.ok) {
    // a failed build never lets a stale test binary run
    return {
      status: build.timedOut ? 'timeout' : build.error ? 'error' : 'failed',
      tests: [],
      diagnostics: build.diagnostics,
      exitCode: null,
      command: build.command,
      durationMs: Date.now() - started,
      outputTail: build.output.slice(-64 * 1024),
      selected,
      ...(build.error ? { error: build.error } : {}),
      ...(build.timedOut ? { error: build.diagnostics[0]!.message } : {}),
    };
  }
  // started once the first pass has started CTest, which is the run's critical path
  const registry = nextTurn().then(() => readRegistry(options.ctest, buildDir, ctx));
  const listings = new ListingCache(buildDir, ctx);
  const hangs = new HangMemory();
  // stopped at a sibling's shorter limit: not marked as cut, so a re-run gives them their whole limit
  const stoppedShort = new Set<string>();
  const base: Base = {
    options,
    ctx,
    buildDir,
    deadline: started + ctx.timeoutMs,
    registry,
    listings,
    limitFor: (id, family, since) =>
      siblingLimit(options, testLimit(options, id, selected, memory), family && hangs.before(family, since)),
    onHang: (id, family, limit, at) => {
      if (family) hangs.record(id, family, at);
      if (limit.source === 'sibling') stoppedShort.add(id);
    },
    emit: (t) => ctx.onTestResult?.(t),
  };
  const passes: PassOutcome[] = [];
  const only = new Map<string, ReadonlySet<string>>();
  if (!selected) passes.push(await runPass({ ...base, select: [] }));
  else {
    const plan = planSelection(ctx.selection!, await registry);
    if (plan.unknown.length > 0)
      return {
        status: 'error',
        tests: [],
        exitCode: null,
        command: `${options.ctest} --test-dir ${buildDir} --show-only=json-v1`,
        durationMs: Date.now() - started,
        selected,
        error: `no CTest entry matches the selection: ${plan.unknown.join(', ')}`,
      };
    for (let i = 0; i < plan.entries.length; i += NAMES_PER_PASS)
      passes.push(
        await runPass({
          ...base,
          select: ['--no-tests=error', '-R', exactNames(plan.entries.slice(i, i + NAMES_PER_PASS))],
        }),
      );
    // the cases of a whole binary run through CTest as the entry does, narrowed by GTEST_FILTER
    for (const [entry, cases] of plan.cases) {
      only.set(entry, new Set(cases));
      passes.push(
        await runPass({
          ...base,
          select: ['--no-tests=error', '-R', exactNames([entry])],
          gtestFilter: cases.join(':'),
          onlyCases: new Set(cases),
        }),
      );
    }
  }
  const spawnError = passes.find((p) => p.spawnError);
  if (spawnError)
    return {
      status: 'error',
      tests: [],
      exitCode: null,
      command: spawnError.command,
      durationMs: Date.now() - started,
      selected,
      error: `${options.ctest} not found: install CMake (apt-get install cmake) or set the runner option "ctest"`,
    };
  for (const pass of [...passes])
    for (const [entry, through] of pass.cut)
      passes.push(...(await continueCut(base, await registry, entry, through, only.get(entry))));
  const streamed = passes.flatMap((p) => p.tests);
  // what the programs printed, checked against GoogleTest's own reports of them
  const tests = ctx.signal.aborted
    ? streamed
    : await crossCheckGtest(
        {
          options,
          ctx,
          buildDir,
          registry: await registry,
          listings,
          reportDirs: passes.map((p) => p.reportDir),
          deadline: base.deadline,
        },
        streamed,
      );
  await listings.save().catch(() => undefined);

  for (const id of ctx.selection ?? [])
    if (!tests.some((t) => t.id === id)) {
      const own = entryFromCases(id, tests) ?? caseOfCrashedEntry(id, tests);
      if (own) tests.push(own);
    }
  remember(
    memory,
    tests.filter((t) => t.status !== 'timeout' || !stoppedShort.has(t.id)),
  );
  const timedOut = passes.some((p) => p.timedOut);
  const output = passes.map((p) => p.output).join('\n');
  const last = passes[passes.length - 1];
  const common = {
    tests,
    exitCode: passes.find((p) => p.exitCode !== 0)?.exitCode ?? last?.exitCode ?? null,
    command: passes[0]?.command ?? '',
    durationMs: Date.now() - started,
    outputTail: output.slice(-64 * 1024),
    selected,
  };
  if (ctx.signal.aborted || passes.some((p) => p.aborted))
    return { ...common, status: 'error', error: 'the run was cancelled before it ended' };
  if (timedOut)
    return {
      ...common,
      status: 'timeout',
      error: `killed at the wall-clock limit of the run (${ctx.timeoutMs} ms); ${runLimitHint}`,
    };
  if (selected && passes.some((p) => p.noTests))
    return {
      ...common,
      status: 'error',
      error: `no CTest entry matches the selection: ${ctx.selection!.join(', ')}`,
    };
  if (tests.length === 0) return { ...common, status: 'error', error: await noTestsHint(ctx.root, buildDir) };
  const failing = tests.some((t) => t.status !== 'passed' && t.status !== 'skipped');
  return { ...common, status: failing ? 'failed' : 'passed' };
}
