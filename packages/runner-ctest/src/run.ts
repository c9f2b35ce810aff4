import { mkdir, readFile } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { runProcess, type RunContext, type RunResultInput, type TestResult } from '@suture/core';
import { buildEnv, configureAndBuild } from './build.js';
import {
  consoleStatuses,
  failedGtestCases,
  gtestTranscriptFailures,
  parseCtestJunit,
  parseGtestListing,
  readGtestReports,
  transcriptFailure,
  trimMessage,
  unityFailures,
} from './ctest-output.js';
import { crashCause, runningGtestCase, sanitizerCrash } from './crash-cause.js';
import type { ResolvedCtestOptions } from './options.js';

interface Registered {
  command: string[];
  /** The gtest name behind a gtest_discover_tests entry (`--gtest_filter=`), if any. */
  gtestName?: string;
}

const escapeRegex = (s: string): string => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

async function registeredTests(
  options: ResolvedCtestOptions,
  buildDir: string,
  ctx: RunContext,
): Promise<Map<string, Registered>> {
  const r = await runProcess(options.ctest, ['--test-dir', buildDir, '--show-only=json-v1'], {
    cwd: ctx.root,
    env: buildEnv(),
    timeoutMs: 60_000,
    signal: ctx.signal,
  });
  const out = new Map<string, Registered>();
  try {
    const json = JSON.parse(r.output) as { tests?: Array<{ name: string; command?: string[] }> };
    for (const t of json.tests ?? []) {
      const filter = t.command?.find((a) => a.startsWith('--gtest_filter='))?.slice('--gtest_filter='.length);
      out.set(t.name, { command: t.command ?? [], ...(filter ? { gtestName: filter } : {}) });
    }
  } catch {
    // an old ctest without json-v1: selection falls back to -R on entry names
  }
  return out;
}

function rel(root: string, file: string | undefined): string | undefined {
  if (!file) return undefined;
  const r = isAbsolute(file) ? relative(root, file) : file;
  return r.startsWith('..') ? file : r;
}

/**
 * Where every discovered TEST is defined: one `--gtest_list_tests` per test binary. A per-test XML
 * report (GTEST_OUTPUT) would say the same, but costs each test process about a millisecond of CPU
 * and leaves one file per test to parse: on a suite of small tests that was a third of the run.
 */
async function gtestLocations(
  registry: Map<string, Registered>,
  ctx: RunContext,
  dir: string,
): Promise<Map<string, { file: string; line: number }>> {
  const binaries = new Map<string, string[]>();
  for (const t of registry.values()) {
    if (!t.gtestName || t.command.length === 0) continue;
    const command = t.command.filter(
      (a) => !a.startsWith('--gtest_filter=') && a !== '--gtest_also_run_disabled_tests',
    );
    binaries.set(command.join('\0'), command);
  }
  await mkdir(dir, { recursive: true }).catch(() => undefined);
  const lists = await Promise.all(
    [...binaries.values()].map(async (command, i) => {
      const file = join(dir, `list-${i}.json`);
      await runProcess(
        command[0]!,
        [...command.slice(1), '--gtest_list_tests', `--gtest_output=json:${file}`],
        { cwd: ctx.root, env: buildEnv(), timeoutMs: 60_000, signal: ctx.signal },
      );
      try {
        return parseGtestListing(await readFile(file, 'utf8'));
      } catch {
        // GoogleTest older than 1.10 writes no listing: its tests go without a definition line
        return new Map<string, { file: string; line: number }>();
      }
    }),
  );
  return new Map(lists.flatMap((m) => [...m]));
}

/** Runs selected gtest cases of one binary directly, with --gtest_filter. */
async function runCases(
  binary: string[],
  cases: string[],
  ctx: RunContext,
  dir: string,
): Promise<{ output: string; timedOut: boolean; reports: Awaited<ReturnType<typeof readGtestReports>> }> {
  await mkdir(dir, { recursive: true });
  const r = await runProcess(
    binary[0]!,
    [...binary.slice(1).filter((a) => !a.startsWith('--gtest_filter')), `--gtest_filter=${cases.join(':')}`],
    {
      cwd: ctx.root,
      env: { ...buildEnv(), GTEST_OUTPUT: `xml:${dir}/` },
      timeoutMs: ctx.timeoutMs,
      signal: ctx.signal,
    },
  );
  return { output: r.output, timedOut: r.timedOut || r.aborted, reports: await readGtestReports(dir) };
}

export async function runCtest(options: ResolvedCtestOptions, ctx: RunContext): Promise<RunResultInput> {
  const started = Date.now();
  const buildDir = resolve(ctx.root, options.buildDir);
  const build = await configureAndBuild(options, ctx, buildDir);
  const selected = ctx.selection !== undefined;
  if (!build.ok) {
    // a failed build never lets a stale test binary run
    return {
      status: build.error ? 'error' : 'failed',
      tests: [],
      diagnostics: build.diagnostics,
      exitCode: null,
      command: build.command,
      durationMs: Date.now() - started,
      outputTail: build.output.slice(-64 * 1024),
      selected,
      ...(build.error ? { error: build.error } : {}),
    };
  }
  // a selection is resolved against the registry before it runs; a full run reads it alongside
  const registryRun = registeredTests(options, buildDir, ctx);
  let registry = selected ? await registryRun : new Map<string, Registered>();
  const junit = join(ctx.workDir, 'ctest-junit.xml');

  // a selection names CTest entries, or cases inside a whole-binary entry (`entry::Suite.Case`)
  const entries = new Set<string>();
  const cases = new Map<string, string[]>();
  for (const id of ctx.selection ?? []) {
    const [entry, kase] = id.split('::') as [string, string | undefined];
    const binary = registry.get(entry);
    if (kase && binary && !binary.gtestName && binary.command.length > 0 && /^[\w/]+\.[\w/]+$/.test(kase))
      cases.set(entry, [...(cases.get(entry) ?? []), kase]);
    else entries.add(entry);
  }

  const tests: TestResult[] = [];
  let output = '';
  let timedOut = false;
  let command = '';
  let exitCode: number | null = 0;
  if (!selected || entries.size > 0) {
    const args = [
      '--test-dir',
      buildDir,
      `--output-junit`,
      junit,
      '--output-on-failure',
      '--timeout',
      String(options.testTimeout),
      ...(selected ? ['--no-tests=error', '-R', `^(${[...entries].map(escapeRegex).join('|')})$`] : []),
      ...options.ctestArgs,
    ];
    // listed while the tests run: listing only reads the binaries; a selection lists only the binaries it runs
    const locations = registryRun.then((reg) =>
      gtestLocations(
        selected ? new Map([...reg].filter(([name]) => entries.has(name))) : reg,
        ctx,
        join(ctx.workDir, 'gtest-list'),
      ),
    );
    const r = await runProcess(options.ctest, args, {
      cwd: ctx.root,
      env: { ...buildEnv(), CTEST_OUTPUT_ON_FAILURE: '1' },
      timeoutMs: ctx.timeoutMs,
      signal: ctx.signal,
      tailBytes: 1024 * 1024,
    });
    command = r.command;
    output += r.output;
    timedOut ||= r.timedOut || r.aborted;
    exitCode = r.exitCode;
    registry = await registryRun;
    const defined = await locations;
    if (r.spawnError)
      return {
        status: 'error',
        tests: [],
        exitCode: null,
        command,
        durationMs: Date.now() - started,
        selected,
        error: `${options.ctest} not found: install CMake (apt-get install cmake) or set the runner option "ctest"`,
      };
    const statuses = consoleStatuses(r.output);
    let junitCases: ReturnType<typeof parseCtestJunit> = [];
    try {
      junitCases = parseCtestJunit(await readFile(junit, 'utf8'));
    } catch {
      junitCases = [...statuses.keys()].map((name) => ({
        name,
        status: statuses.get(name)!.status === 'passed' ? 'run' : 'fail',
        seconds: statuses.get(name)!.seconds,
        output: '',
      }));
    }
    for (const c of junitCases) {
      const reg = registry.get(c.name);
      const con = statuses.get(c.name);
      const gtestName = reg?.gtestName ?? c.name;
      const at = defined.get(gtestName);
      let status: TestResult['status'] =
        c.status === 'fail' ? 'failed' : c.status === 'notrun' ? 'skipped' : 'passed';
      if (con?.status === 'timeout') status = 'timeout';
      else if (con?.status === 'crashed') status = 'crashed';
      else if (/Unable to find executable/.test(c.skippedMessage ?? '') || con?.status === 'notrun')
        status = 'error';
      // a sanitizer that ends the program with exit code 1 stopped it as a crash does
      if (status === 'failed' && sanitizerCrash(c.output)) status = 'crashed';
      const base: TestResult = {
        id: c.name,
        name: c.name,
        status,
        durationMs: c.seconds * 1000,
        ...(at ? { file: rel(ctx.root, at.file)!, line: at.line } : {}),
      };
      if (status === 'passed' || status === 'skipped') {
        tests.push(base);
        continue;
      }
      // one CTest entry running a whole binary: report its failing cases one by one
      const failedCases = !reg?.gtestName ? failedGtestCases(c.output) : [];
      if (failedCases.length > 0 && status === 'failed') {
        const transcript = gtestTranscriptFailures(c.output);
        for (const kase of failedCases) tests.push(failedCase(ctx.root, c.name, kase, c.output, transcript));
        continue;
      }
      const unity = unityFailures(c.output);
      if (unity.length > 0 && status === 'failed') {
        for (const u of unity)
          tests.push({
            id: `${c.name}::${u.name}`,
            name: u.name,
            status: 'failed',
            file: rel(ctx.root, u.file)!,
            line: u.line,
            message: u.message,
            trace: trimMessage(c.output),
            details: { entry: c.name, failureFile: rel(ctx.root, u.file), failureLine: u.line },
          });
        continue;
      }
      const cause = status === 'crashed' ? crashCause(c.output) : undefined;
      const frame = cause?.frame;
      // the case a whole binary was running when it stopped: its TEST body is where to look
      const running = status === 'crashed' && !reg?.gtestName ? runningGtestCase(c.output) : undefined;
      const failure = reg?.gtestName && status === 'failed' ? transcriptFailure(c.output) : undefined;
      const message =
        status === 'timeout'
          ? `killed by ctest at its timeout (${con?.seconds ?? '?'} s)`
          : status === 'crashed'
            ? `crashed: ${cause?.reason ?? con?.detail ?? 'abnormal exit'}${running ? ` (in ${running})` : ''}`
            : failure?.message || c.output.trim().split('\n').slice(-5).join('\n') || 'failed';
      const failureFile = failure?.file ?? at?.file;
      const failureLine = failure?.file ? failure.line : at?.line;
      tests.push({
        ...base,
        message: message.slice(0, 4000),
        trace: trimMessage(c.output),
        details: {
          ...(reg?.gtestName
            ? {
                gtest: gtestName,
                ...(failureFile ? { failureFile: rel(ctx.root, failureFile), failureLine } : {}),
              }
            : {}),
          ...(running ? { gtest: running } : {}),
          ...(frame ? { frame: { ...frame, file: rel(ctx.root, frame.file) } } : {}),
          ...(con ? { ctest: con.detail } : {}),
        },
      });
    }
    if (selected && /No tests were found/.test(r.output)) {
      return {
        status: 'error',
        tests,
        exitCode,
        command,
        durationMs: Date.now() - started,
        outputTail: output,
        selected,
        error: `no CTest entry matches the selection: ${[...entries].join(', ')}`,
      };
    }
  }
  for (const [entry, names] of cases) {
    const dir = join(ctx.workDir, 'gtest-cases', String(Math.abs(hash(entry))));
    const result = await runCases(registry.get(entry)!.command, names, ctx, dir);
    output += result.output;
    timedOut ||= result.timedOut;
    command ||= registry.get(entry)!.command.join(' ');
    const transcript = gtestTranscriptFailures(result.output);
    for (const kase of names) {
      const rep = result.reports.get(kase);
      // a failing case reads the same as in the full run, so its fingerprint stays the same
      if (rep && !rep.passed)
        tests.push(failedCase(ctx.root, entry, kase, result.output, transcript, rep.message));
      else
        tests.push({
          id: `${entry}::${kase}`,
          name: kase,
          status: !rep ? (result.timedOut ? 'timeout' : 'crashed') : 'passed',
          ...(rep?.file ? { file: rel(ctx.root, rep.file)! } : {}),
          ...(rep?.line ? { line: rep.line } : {}),
          ...(!rep ? { trace: trimMessage(result.output) } : {}),
          details: { entry, gtest: kase },
        });
    }
  }
  for (const t of tests) ctx.onTestResult?.(t);
  const failing = tests.some((t) => t.status !== 'passed' && t.status !== 'skipped');
  return {
    status: timedOut ? 'timeout' : failing ? 'failed' : tests.length === 0 ? 'error' : 'passed',
    tests,
    exitCode,
    command,
    durationMs: Date.now() - started,
    outputTail: output.slice(-64 * 1024),
    selected,
    ...(timedOut
      ? { error: `killed at the wall-clock limit of ${ctx.timeoutMs} ms` }
      : tests.length === 0
        ? {
            error:
              'CTest ran no test: does the project call enable_testing() and add_test()/gtest_discover_tests()?',
          }
        : {}),
  };
}

/** A failing gtest case inside a whole-binary entry, located at its failure line in the transcript. */
function failedCase(
  root: string,
  entry: string,
  kase: string,
  output: string,
  transcript: ReturnType<typeof gtestTranscriptFailures>,
  fallbackMessage?: string,
): TestResult {
  const t = transcript.get(kase);
  const message = t ? t.message.split('\n').slice(0, 6).join('\n') : fallbackMessage?.slice(0, 4000);
  return {
    id: `${entry}::${kase}`,
    name: kase,
    status: 'failed',
    ...(t?.file ? { file: rel(root, t.file)!, line: t.line } : {}),
    ...(message ? { message } : {}),
    trace: trimMessage(output),
    details: {
      entry,
      gtest: kase,
      ...(t?.file ? { failureFile: rel(root, t.file), failureLine: t.line } : {}),
    },
  };
}

function hash(s: string): number {
  let h = 0;
  for (const c of s) h = (h * 31 + c.charCodeAt(0)) | 0;
  return h;
}
