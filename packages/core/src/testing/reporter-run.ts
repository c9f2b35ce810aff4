import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { HealConfigSchema } from '../api/contracts/config.js';
import { PluginError } from '../api/errors.js';
import type { GateReport } from '../api/contracts/report.js';
import type { Logger, Reporter } from '../api/plugin.js';
import { runGate } from '../engine/gate.js';
import { REPORTER_HOOKS } from '../host/wrap-plugin.js';
import { scriptAnalyzer, scriptRunner } from './script-runner.js';
import { scriptedFixer } from './scripted-fixer.js';

export const HOOKS = REPORTER_HOOKS;
export type HookName = (typeof HOOKS)[number];

/**
 * The project the reporter kit gates: `add` subtracts, one test fails on it, one passes, and a
 * scripted fixer heals it, so every event of a run happens (attempts, the retry and the
 * regression rounds included).
 */
const PROJECT: Readonly<Record<string, string>> = {
  'src/math.mjs': 'export function add(a, b) {\n  return a - b;\n}\n',
  'tests/add.test.mjs':
    "import assert from 'node:assert/strict';\nimport { add } from '../src/math.mjs';\n\nassert.equal(add(2, 3), 5);\n",
  'tests/ok.test.mjs': "import assert from 'node:assert/strict';\n\nassert.equal(1 + 1, 2);\n",
};

export interface Call {
  hook: HookName;
  event: unknown;
  /** The second argument (onRunEnd's context). */
  context?: unknown;
  started: number;
  ended?: number;
  error?: string;
}

/** A reporter that forwards to `inner` and records each call, its timing and its throw. */
export function recording(inner: Reporter): { reporter: Reporter; calls: Call[]; overlaps: string[] } {
  const calls: Call[] = [];
  const overlaps: string[] = [];
  let running: Call | undefined;
  const reporter: Reporter = { name: inner.name, apiVersion: inner.apiVersion };
  for (const hook of HOOKS) {
    const fn = inner[hook] as ((...args: unknown[]) => unknown) | undefined;
    if (typeof fn !== 'function') continue;
    (reporter as unknown as Record<string, unknown>)[hook] = async (...args: unknown[]) => {
      const call: Call = { hook, event: args[0], context: args[1], started: performance.now() };
      if (running) overlaps.push(`${hook} began while ${running.hook} had not finished`);
      running = call;
      calls.push(call);
      try {
        await fn.apply(inner, args);
      } catch (error) {
        // the reporter's own words, without the name the wrapper's PluginError puts first
        call.error =
          error instanceof PluginError
            ? error.detail
            : error instanceof Error
              ? error.message
              : String(error);
        throw error;
      } finally {
        call.ended = performance.now();
        if (running === call) running = undefined;
      }
    };
  }
  return { reporter, calls, overlaps };
}

/** Throws in every hook: the reporters after it must still hear everything. */
export const throwingReporter: Reporter = Object.fromEntries([
  ['name', 'reporter-kit:thrower'],
  ['apiVersion', 1],
  ...HOOKS.map((hook) => [
    hook,
    async () => {
      throw new Error(`${hook} fails on purpose`);
    },
  ]),
]) as Reporter;

/** Slow in every hook, so a hook that is not awaited shows up as an overlap. */
export function slowReporter(ms = 5): Reporter {
  return Object.fromEntries([
    ['name', 'reporter-kit:slow'],
    ['apiVersion', 1],
    ...HOOKS.map((hook) => [hook, () => new Promise((r) => setTimeout(r, ms))]),
  ]) as Reporter;
}

export interface GateRun {
  report: GateReport;
  root: string;
  dispose: () => Promise<void>;
}

/**
 * Gates the kit's project with these reporters, in this order. `interruptOn` aborts the run
 * when that hook first fires, as Ctrl-C would: the gate ends early with an error in its report.
 */
export async function gateWithReporters(
  reporters: Reporter[],
  options: { tempParent?: string; interruptOn?: HookName; logger?: Logger } = {},
): Promise<GateRun> {
  const base = await mkdtemp(join(options.tempParent ?? tmpdir(), 'suture-reporter-kit-'));
  const root = join(base, 'repo');
  for (const [file, text] of Object.entries(PROJECT)) {
    await mkdir(dirname(join(root, file)), { recursive: true });
    await writeFile(join(root, file), text);
  }
  const controller = new AbortController();
  const interrupt: Reporter[] = options.interruptOn
    ? [{ name: 'reporter-kit:interrupt', apiVersion: 1, [options.interruptOn]: () => controller.abort() }]
    : [];
  const logger: Logger = options.logger ?? { debug() {}, info() {}, warn() {}, error() {} };
  const report = await runGate({
    root,
    outputDir: join(root, '.suture', 'runs'),
    mode: 'check',
    projects: [
      {
        name: 'kit',
        root,
        runner: scriptRunner(),
        analyzer: scriptAnalyzer(),
        timeoutMs: 60_000,
        heal: HealConfigSchema.parse({ flakyReruns: 0 }),
      },
    ],
    fixers: [
      scriptedFixer([
        {
          verdict: 'edits',
          edits: [{ file: 'src/math.mjs', search: 'a - b', replace: 'a + b' }],
          rationale: 'add adds',
        },
      ]),
    ],
    reporters: [...interrupt, ...reporters],
    concurrency: 1,
    logger,
    signal: controller.signal,
  });
  return { report, root, dispose: () => rm(base, { recursive: true, force: true }) };
}
