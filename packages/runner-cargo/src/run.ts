import type { Diagnostic, RunContext, RunResultInput, TestResult } from '@suture/core';
import type { ParseCache } from '@suture/core/analysis';
import { buildEnv } from './env.js';
import { CargoFold, doctestPlace, testId, type Locate, type Section } from './libtest.js';
import { testLocator } from './locate.js';
import { readMetadata, type CargoMetadata } from './metadata.js';
import type { ResolvedCargoOptions } from './options.js';
import { listTests, passArgs, runPass, type PassInput, type PassPlan } from './pass.js';
import { selectionPlans } from './selection.js';
import { targetFlags } from './targets.js';

const TAIL_CHARS = 64 * 1024;
/** Each stuck binary costs a pass or two more; past this many the rest is not run. */
const MAX_PASSES = 12;

export const INSTALL_RUST =
  'install Rust with rustup (https://rustup.rs: curl --proto "=https" --tlsv1.2 -sSf https://sh.rustup.rs | sh), or set the runner option "cargo"';

function tail(text: string, n: number): string {
  return text.trimEnd().split('\n').slice(-n).join('\n');
}

/** What cargo printed as `error:` outside rustc's JSON: a broken manifest, a dependency it cannot fetch offline. */
function cargoErrors(output: string, root: string): Diagnostic[] {
  const lines = output.split('\n');
  const out: Diagnostic[] = [];
  lines.forEach((line, i) => {
    if (
      !/^error(?:\[\w+\])?: /.test(line) ||
      /^error: (?:test failed|doctest failed|\d+ targets? failed|could not compile)/.test(line)
    )
      return;
    const more = lines.slice(i + 1, i + 8).filter((l) => /^\s|^Caused by:|^$/.test(l));
    const file = /(?:manifest at|parse manifest at) `([^`]+)`/.exec(line)?.[1];
    out.push({
      source: 'cargo',
      severity: 'error',
      message: [line.replace(/^error: /, ''), ...more].join('\n').trim(),
      ...(file ? { file: file.startsWith(root) ? file.slice(root.length + 1) : file } : {}),
      notes: [],
      fixIts: [],
      tests: [],
    });
  });
  return out;
}

interface Loop {
  fold: CargoFold;
  input: PassInput;
  meta: CargoMetadata;
  outputs: string[];
  commands: string[];
  locate: Locate;
}

/** The binaries a full run's pass did not reach, after one was stopped: one more pass each kind. */
function leftPlans(loop: Loop, options: ResolvedCargoOptions, ran: Section[]): PassPlan[] {
  const seen = new Set(ran.map((s) => `${s.kind}\0${s.key}`));
  const pkgs = loop.meta.packages.filter((p) => loop.meta.defaults.includes(p.name));
  const units = pkgs.flatMap((p) =>
    p.targets
      .filter((t) => ['lib', 'bin', 'test', 'proc-macro'].includes(t.kind) && !seen.has(`unit\0${t.src}`))
      .flatMap((t) => targetFlags(loop.meta, { kind: 'unit', key: t.src }) ?? []),
  );
  const docs = pkgs.filter((p) => p.targets.some((t) => t.doctest) && !seen.has(`doc\0${p.dir}`));
  return [
    ...(units.length > 0
      ? [{ cargoArgs: [...options.args, ...units], testArgs: options.testArgs, left: true }]
      : []),
    ...docs.map((p) => ({
      cargoArgs: [...options.args, '-p', p.name, '--doc'],
      testArgs: options.testArgs,
      left: true,
    })),
  ];
}

/** A binary the watchdog stopped: its stuck test is a timeout, the tests it did not reach run again one at a time. */
async function afterStall(
  loop: Loop,
  stall: { section: Section; test?: string },
  options: ResolvedCargoOptions,
): Promise<PassPlan[]> {
  const { fold } = loop;
  const why = `reported no result for ${options.testTimeoutMs} ms (the runner option "testTimeoutMs"); suture stopped it and ran the other tests without it`;
  if (stall.test) {
    const name = stall.test;
    const libtestName = stall.section.kind === 'doc' ? undefined : name.slice(name.indexOf('.rs::') + 5);
    const place = libtestName ? loop.locate(stall.section, libtestName) : doctestPlace(name);
    const t: TestResult = fold.tests.get(name) ?? {
      id: name,
      status: 'timeout',
      ...(place ? { file: place.file, line: place.line } : {}),
    };
    Object.assign(t, { status: 'timeout', message: `did not finish: ${why}` });
    fold.tests.set(name, t);
    stall.section.reported.add(name);
    loop.fold.emitTest(t);
  }
  const flags = targetFlags(loop.meta, stall.section);
  if (!flags) return [];
  const all = await listTests(loop.input, [...options.args, ...flags], stall.section);
  const left = all.filter((id) => !fold.tests.has(id));
  const names = left.map((id) =>
    stall.section.kind === 'doc' && stall.section.key
      ? id.slice(stall.section.key.length + 1)
      : id.slice(id.indexOf('.rs::') + 5),
  );
  return names.length > 0
    ? [
        {
          cargoArgs: [...options.args, ...flags],
          testArgs: [...options.testArgs, '--exact', '--test-threads=1', ...names],
        },
      ]
    : [];
}

/** Runs the project's `cargo test` (or the selected tests) and reads every binary's results. */
export async function runCargo(
  options: ResolvedCargoOptions,
  ctx: RunContext,
  parser: ParseCache,
): Promise<RunResultInput> {
  const started = Date.now();
  const envBase = { ...process.env, ...options.env } as Record<string, string>;
  const meta = await readMetadata(options.cargo, ctx.root, envBase, ctx.signal);
  const base = {
    command: `${options.cargo} ${passArgs({ cargoArgs: options.args, testArgs: options.testArgs }).join(' ')}`,
    selected: ctx.selection !== undefined,
  };
  if ('error' in meta) {
    const missing = /cannot start/.test(meta.error);
    return {
      ...base,
      status: 'error',
      tests: [],
      exitCode: null,
      durationMs: Date.now() - started,
      error: missing ? `${meta.error}; ${INSTALL_RUST}` : meta.error,
    };
  }
  const env = await buildEnv(ctx.root, meta, options, envBase);
  const { locate } = await testLocator(ctx.root, meta, parser);
  const crateDirs = (crate: string): string | undefined =>
    meta.packages.find((p) =>
      p.targets.some((t) => t.doctest && t.name.replace(/-/g, '_') === crate.replace(/-/g, '_')),
    )?.dir;
  const stream = (t: TestResult): void => {
    try {
      ctx.onTestResult?.(t);
    } catch (error) {
      ctx.logger.debug(`onTestResult threw for ${t.id}: ${String(error)}`);
    }
  };
  const fold = new CargoFold(
    { projectRoot: ctx.root, workspaceRoot: meta.workspaceRoot },
    locate,
    crateDirs,
    stream,
    () => ctx.onFailing?.(),
  );
  const input: PassInput = {
    cargo: options.cargo,
    root: ctx.root,
    env,
    limitMs: options.testTimeoutMs,
    timeoutMs: ctx.timeoutMs,
    signal: ctx.signal,
  };
  const loop: Loop = { fold, input, meta, outputs: [], commands: [], locate };
  const plans: PassPlan[] = ctx.selection
    ? selectionPlans(meta, ctx.selection, options)
    : [{ cargoArgs: options.args, testArgs: options.testArgs }];
  let lastCode: number | null = null;
  let timedOut = false;
  let repassed = false;
  for (let n = 0; plans.length > 0 && n < MAX_PASSES; n++) {
    const plan = plans.shift()!;
    input.timeoutMs = Math.max(1, ctx.timeoutMs - (Date.now() - started));
    const { proc, stall } = await runPass(input, plan, fold);
    loop.outputs.push(proc.output);
    loop.commands.push(proc.command);
    lastCode = proc.exitCode;
    if (proc.spawnError)
      return {
        ...base,
        status: 'error',
        tests: [],
        exitCode: null,
        durationMs: Date.now() - started,
        error: `cannot start ${options.cargo}: ${proc.spawnError}; ${INSTALL_RUST}`,
      };
    if (proc.timedOut || ctx.signal.aborted) {
      timedOut = true;
      break;
    }
    if (stall) {
      repassed = true;
      plans.unshift(...(await afterStall(loop, stall, options)));
      if (!ctx.selection) {
        // what the stopped pass did not reach, planned again from all the sections seen so far
        const keep = plans.filter((p) => !p.left);
        plans.length = 0;
        plans.push(...keep, ...leftPlans(loop, options, fold.sections));
      }
    }
  }
  return finish(loop, ctx, { base, started, lastCode, timedOut, repassed });
}

interface Ending {
  base: { command: string; selected: boolean };
  started: number;
  lastCode: number | null;
  timedOut: boolean;
  repassed: boolean;
}

function finish(loop: Loop, ctx: RunContext, end: Ending): RunResultInput {
  const { fold } = loop;
  const output = loop.outputs.join('\n[suture: cargo test went on in a new pass]\n').slice(-TAIL_CHARS);
  const errorsFromRustc = [...fold.diagnostics.values()];
  const diagnostics = [
    ...errorsFromRustc,
    ...(errorsFromRustc.some((d) => d.severity === 'error') ? [] : cargoErrors(output, ctx.root)),
  ];
  const selected = ctx.selection ? new Set(ctx.selection) : undefined;
  const tests = [...fold.tests.values()].filter((t) => !selected || selected.has(t.id));
  // a binary that announced tests and ended before reporting them all died under them
  for (const s of fold.sections)
    if (!end.timedOut && s.announced !== undefined && s.reported.size < s.announced && !end.repassed)
      diagnostics.push({
        source: 'libtest',
        severity: 'error',
        message: `the test binary of ${s.key || 'the doctests'} announced ${s.announced} tests and reported ${s.reported.size}: it ended early (a crash, or process::exit in a test):\n${tail(output, 12)}`,
        notes: [],
        fixIts: [],
        tests: [],
      });
  const collected = fold.sections.reduce((n, s) => n + (s.announced ?? 0), 0);
  const result = {
    ...end.base,
    command: loop.commands[0] ?? end.base.command,
    tests,
    diagnostics,
    exitCode: end.lastCode,
    durationMs: Date.now() - end.started,
    outputTail: output,
    ...(!selected && !end.repassed && !end.timedOut && diagnostics.every((d) => d.severity !== 'error')
      ? { collected }
      : {}),
  };
  if (end.timedOut) {
    const why = ctx.signal.aborted
      ? 'the run was aborted'
      : `killed at the wall-clock limit of the run (${ctx.timeoutMs} ms; raise "timeoutMs" in the suture config)`;
    return { ...result, status: 'timeout', error: why };
  }
  const bad = tests.some(
    (t) => t.status === 'failed' || t.status === 'timeout' || t.status === 'crashed' || t.status === 'error',
  );
  const errors = diagnostics.some((d) => d.severity === 'error');
  if (!bad && !errors && tests.length === 0 && end.lastCode !== 0)
    return {
      ...result,
      status: 'error',
      error: `cargo test exited with code ${end.lastCode} and reported no test:\n${tail(output, 15)}`,
    };
  return { ...result, status: bad || errors ? 'failed' : 'passed' };
}

export { testId };
