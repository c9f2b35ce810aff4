import { mkdtemp } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { runProcess, type RunContext, type TestResult } from '@suture/core';
import { buildEnv } from './build.js';
import { readGtestReports, reportEnv, type CaseReport, type GtestReports } from './gtest-report.js';
import type { ListingCache } from './gtest-listing.js';
import type { ResolvedCtestOptions } from './options.js';
import { binaryCommand, type Registered, type Registry } from './registry.js';
import { exactNames } from './selection.js';

/** A case the stream called passed, and where GoogleTest's own report of it is to be found. */
interface Claim {
  test: TestResult;
  entry: string;
  /** The entry runs one case of a binary (gtest_discover_tests) rather than the whole binary. */
  discovered: boolean;
  /**
   * The basenames of what the entry's command may run as the GoogleTest program, which names its
   * report after itself: the binary, or a wrapper (valgrind, an emulator) and the binary after it.
   */
  programs: string[];
  kase: string;
  /** Its program lists its cases as JSON: it writes GoogleTest's reports (1.10 and later). */
  listed: boolean;
}

export interface CrossCheckInput {
  options: ResolvedCtestOptions;
  ctx: RunContext;
  buildDir: string;
  registry: Registry;
  listings: ListingCache;
  /** Where the run's passes had GoogleTest write its reports. */
  reportDirs: readonly string[];
  deadline: number;
}

/** The GoogleTest cases of `tests` that passed by the stream, in entries that leave the report to suture. */
async function claims(
  tests: readonly TestResult[],
  registry: Registry,
  listings: ListingCache,
): Promise<Claim[]> {
  const out: Claim[] = [];
  const ours = (reg: Registered): boolean => !reg.ownVerdict && !reg.ownReport;
  for (const test of tests) {
    if (test.status !== 'passed') continue;
    const discovered = registry.get(test.id);
    const entry = discovered?.gtestName ? test.id : (test.details?.entry as string | undefined);
    const reg = entry ? registry.get(entry) : undefined;
    const kase = discovered?.gtestName ?? (test.details?.gtest as string | undefined);
    if (!entry || !reg || !kase || !reg.command[0] || !ours(reg)) continue;
    const listed = (await listings.list(binaryCommand(reg.command))).size > 0;
    const programs = reg.command.filter((a) => !a.startsWith('-')).map((a) => basename(a));
    out.push({
      test,
      entry,
      discovered: !!discovered?.gtestName,
      programs,
      kase,
      listed,
    });
  }
  return out;
}

const reportOf = (reports: GtestReports, c: Claim): CaseReport | undefined =>
  c.programs.map((p) => reports.get(p)?.get(c.kase)).find((r) => r !== undefined);

/**
 * Runs the entries of claims no report confirmed once more, one program at a time (so no two pick
 * the same report file), narrowed to those cases, and reads what GoogleTest reported.
 */
async function rerunAlone(input: CrossCheckInput, open: readonly Claim[]): Promise<GtestReports> {
  const left = input.deadline - Date.now();
  if (left <= 1000 || input.ctx.signal.aborted) return new Map();
  const dir = await mkdtemp(join(input.ctx.workDir, 'gtest-report-check-'));
  const entries = [...new Set(open.map((c) => c.entry))];
  // a discovered entry's own --gtest_filter wins over this one, which narrows the whole binaries
  const cases = [...new Set(open.filter((c) => !c.discovered).map((c) => c.kase))];
  await runProcess(
    input.options.ctest,
    [
      '--test-dir',
      input.buildDir,
      ...input.options.ctestArgs,
      '-j',
      '1',
      '-R',
      exactNames(entries),
      '--timeout',
      String(Math.ceil(left / 1000)),
    ],
    {
      cwd: input.ctx.root,
      env: {
        ...buildEnv(),
        ...reportEnv(dir),
        ...(cases.length > 0 ? { GTEST_FILTER: cases.join(':') } : {}),
      },
      timeoutMs: left,
      signal: input.ctx.signal,
      tailBytes: 64 * 1024,
    },
  );
  return readGtestReports(
    [dir],
    open.flatMap((c) => c.programs),
  );
}

function contradicted(test: TestResult, kase: string, why: string): TestResult {
  return {
    ...test,
    status: 'failed',
    message: `the output and exit code of its program say ${kase} passed, but ${why}`,
    details: { ...test.details, gtest: kase, gtestReport: why },
  };
}

const ABSENT =
  "GoogleTest's own report (the file it writes from its own records as the program ends) holds no result for it, in the run nor in a re-run of it alone: the program ended before GoogleTest finished (an exit in the code under test), or its result lines were printed by something other than GoogleTest";

function verdict(c: Claim, report: CaseReport | undefined): TestResult | undefined {
  if (!report) return undefined;
  if (report.status === 'passed') return c.test;
  if (report.status === 'failed')
    return contradicted(
      c.test,
      c.kase,
      `GoogleTest's own report says it failed${report.message ? `:\n${report.message}` : ''}`,
    );
  return contradicted(
    c.test,
    c.kase,
    `GoogleTest's own report says it ${report.status === 'skipped' ? 'was skipped' : 'did not run'}`,
  );
}

/**
 * Checks every GoogleTest case the printed transcript calls passed against GoogleTest's own
 * report of the run. The transcript is stdout, which the code under test shares: it can print
 * `[       OK ]` lines and exit. A case the report says failed, or that no report holds even when
 * it runs again alone, fails with the reason. Returns `tests` with those results replaced.
 */
export async function crossCheckGtest(
  input: CrossCheckInput,
  tests: readonly TestResult[],
): Promise<TestResult[]> {
  const candidates = await claims(tests, input.registry, input.listings);
  if (candidates.length === 0) return [...tests];
  const reports = await readGtestReports(
    input.reportDirs,
    candidates.flatMap((c) => c.programs),
  );
  // a GoogleTest before 1.10 writes no JSON, and lists nothing either; a program that wrote a
  // report in this run writes them, whatever its listing did
  const all = candidates.filter((c) => c.listed || c.programs.some((p) => reports.has(p)));
  const open = all.filter((c) => !reportOf(reports, c));
  const again = open.length > 0 ? await rerunAlone(input, open) : new Map<string, Map<string, CaseReport>>();
  const replaced = new Map<TestResult, TestResult>();
  for (const c of all) {
    const checked =
      verdict(c, reportOf(reports, c)) ??
      verdict(c, reportOf(again, c)) ??
      contradicted(c.test, c.kase, ABSENT);
    if (checked !== c.test) replaced.set(c.test, checked);
  }
  return tests.map((t) => replaced.get(t) ?? t);
}
