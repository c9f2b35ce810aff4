import { afterEach, describe, expect, it, vi } from 'vitest';
import { PluginError } from '../api/errors.js';
import {
  API_VERSION,
  type Analyzer,
  type Fixer,
  type Generator as GeneratorPlugin,
  type Logger,
  type PluginBase,
  type Reporter,
  type RunContext,
  type Runner,
} from '../api/plugin.js';
import type { TestFileModel } from '../api/test-model.js';
import type { HookTable } from './hook-table.js';
import { RUNNER_GRACE_MS } from './runner-limit.js';
import {
  ANALYZER_HOOKS,
  FIXER_HOOKS,
  GENERATOR_HOOKS,
  REPORTER_HOOK_TABLE,
  RUNNER_HOOKS,
  wrapAnalyzer,
  wrapFixer,
  wrapGenerator,
  wrapReporter,
  wrapRunner,
} from './wrap-plugin.js';

// Type-level: each table names every key of its interface. Were a hook added to an interface in
// api/plugin.ts and not to its table, the table's own declaration would fail the typecheck; these
// lines show that the table type refuses a missing hook and an unknown one.
const analyzerWithoutTestModel = {
  analyze: { kind: 'call' },
  scope: { kind: 'call' },
  isTestFile: { kind: 'sync', fallback: false },
  checkSyntax: { kind: 'sync', fallback: undefined },
  checkTampering: { kind: 'sync', fallback: undefined },
} as const;
// @ts-expect-error testModel is a hook of Analyzer, so a table without it does not cover the interface
export const dropsTestModel: HookTable<Analyzer> = analyzerWithoutTestModel;
export const unknownHook: HookTable<Fixer> = {
  kinds: { kind: 'field' },
  propose: { kind: 'call' },
  doctor: { kind: 'call' },
  // @ts-expect-error a key that is no hook of Fixer is refused too
  proposeFaster: { kind: 'call' },
};

type Covers<P extends PluginBase, T> =
  Exclude<keyof P, keyof PluginBase> extends keyof T
    ? Exclude<keyof T, keyof P> extends never
      ? true
      : false
    : false;
const covered: [
  Covers<Runner, typeof RUNNER_HOOKS>,
  Covers<Analyzer, typeof ANALYZER_HOOKS>,
  Covers<Fixer, typeof FIXER_HOOKS>,
  Covers<Reporter, typeof REPORTER_HOOK_TABLE>,
  Covers<GeneratorPlugin, typeof GENERATOR_HOOKS>,
] = [true, true, true, true, true];

function recorder(): { logger: Logger; warnings: string[] } {
  const warnings: string[] = [];
  return { warnings, logger: { debug() {}, info() {}, warn: (m) => void warnings.push(m), error() {} } };
}

const origin = { configFile: 'suture.config.json', keyPath: 'projects[0].runner' };
const base = { name: 'every-hook', apiVersion: API_VERSION };

/** A plugin that has every key of `table`, each method answering with its own name. */
function complete<P extends PluginBase>(table: HookTable<P>): P {
  const plugin: Record<string, unknown> = { ...base };
  for (const [key, rule] of Object.entries(table) as Array<[string, { kind: string }]>)
    plugin[key] =
      rule.kind === 'field'
        ? `field:${key}`
        : key === 'analyzer'
          ? () => complete(ANALYZER_HOOKS)
          : function (this: unknown) {
              return this === plugin ? `called:${key}` : `unbound:${key}`;
            };
  return plugin as P;
}

describe('wrappers built from one table per kind', () => {
  const kinds = [
    ['runner', RUNNER_HOOKS, wrapRunner],
    ['analyzer', ANALYZER_HOOKS, wrapAnalyzer],
    ['fixer', FIXER_HOOKS, wrapFixer],
    ['reporter', REPORTER_HOOK_TABLE, wrapReporter],
    ['generator', GENERATOR_HOOKS, wrapGenerator],
  ] as const;

  it('covers every interface, as the type-level lines above check', () => {
    expect(covered).toEqual([true, true, true, true, true]);
  });

  it.each(kinds)(
    'a %s wrapper carries every hook of its table, called on the plugin itself',
    async (_, table, wrap) => {
      const plugin = complete(table as HookTable<PluginBase>);
      const wrapped = (
        wrap as unknown as (p: PluginBase, o: undefined, l: Logger) => Record<string, unknown>
      )(plugin, undefined, recorder().logger);
      expect(wrapped.name).toBe('every-hook');
      for (const [key, rule] of Object.entries(table) as Array<[string, { kind: string }]>) {
        expect(wrapped[key], key).toBeDefined();
        if (rule.kind === 'field') expect(wrapped[key]).toBe(`field:${key}`);
        else if (key === 'analyzer')
          expect(Object.keys((wrapped[key] as () => object)())).toContain('testModel');
        else if (key === 'run')
          continue; // the runner's limit has its own test below
        else
          expect(await (wrapped[key] as (...a: unknown[]) => unknown)('x', 'y', 'z')).toBe(`called:${key}`);
      }
    },
  );
});

describe('testModel through the wrapper', () => {
  const model: TestFileModel = {
    tests: [
      {
        name: 'TestAdd',
        assertions: [{ text: 'add(2,3)==5', names: ['add'], constant: false }],
        skipped: false,
      },
    ],
    mocks: [],
    redefinitions: [],
  };
  const analyzer = (testModel: Analyzer['testModel']): Analyzer => ({
    name: 'go-analyzer',
    apiVersion: API_VERSION,
    analyze: async () => [],
    scope: async () => ({ entries: [] }),
    testModel,
  });

  it("reaches the guard with the analyzer's model, from a runner's own analyzer too", () => {
    const { logger } = recorder();
    const direct = wrapAnalyzer(
      analyzer(() => model),
      origin,
      logger,
    );
    expect(direct.testModel!('add_test.go', 'package calc\n')).toEqual(model);
    const runner: Runner = {
      name: 'go-runner',
      apiVersion: API_VERSION,
      language: 'go',
      supportsSelection: true,
      run: async () => ({ status: 'passed', tests: [], exitCode: 0, command: 'go test', durationMs: 1 }),
      analyzer: () => analyzer(() => model),
    };
    expect(wrapRunner(runner, origin, logger).analyzer!().testModel!('add_test.go', '')).toEqual(model);
  });

  it('takes a throw as "cannot tell" (no model), and says so', () => {
    const { logger, warnings } = recorder();
    const wrapped = wrapAnalyzer(
      analyzer(() => {
        throw new Error('no grammar for go');
      }),
      origin,
      logger,
    );
    expect(wrapped.testModel!('add_test.go', 'package calc\n')).toBeUndefined();
    expect(warnings).toEqual([
      'go-analyzer (suture.config.json#projects[0].runner): no grammar for go (in testModel(add_test.go); taken as "cannot tell")',
    ]);
  });
});

describe("a runner's time limit", () => {
  afterEach(() => void vi.useRealTimers());
  const never: Runner = {
    name: 'stuck-runner',
    apiVersion: API_VERSION,
    language: 'go',
    supportsSelection: false,
    run: () => new Promise(() => {}),
  };
  const ctx = (signal: AbortSignal): RunContext => ({
    root: '/nowhere',
    timeoutMs: 5_000,
    signal,
    logger: recorder().logger,
    workDir: '/nowhere/work',
  });

  it('ends a run that never settles at timeoutMs and the grace, naming the runner and the setting', async () => {
    vi.useFakeTimers();
    const run = wrapRunner(never, origin, recorder().logger).run(ctx(new AbortController().signal));
    const settled = run.catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(5_000 + RUNNER_GRACE_MS - 1);
    expect(await Promise.race([settled, 'pending'])).toBe('pending');
    await vi.advanceTimersByTimeAsync(1);
    const error = await settled;
    expect(error).toBeInstanceOf(PluginError);
    expect((error as Error).message).toBe(
      'stuck-runner (suture.config.json#projects[0].runner): run did not return within 10 s after its time limit of 5 s (the project\'s "timeoutMs"; a runner must stop its tests at the limit and return what it has); the runner was given up and its round ended',
    );
  });

  it('ends a run that ignores the abort a grace after it', async () => {
    vi.useFakeTimers();
    const controller = new AbortController();
    const settled = wrapRunner(never, origin, recorder().logger)
      .run(ctx(controller.signal))
      .catch((e: unknown) => e);
    controller.abort();
    await vi.advanceTimersByTimeAsync(RUNNER_GRACE_MS);
    expect(((await settled) as Error).message).toContain('run did not return within 10 s of being stopped');
  });

  it('passes a result that comes in time through', async () => {
    const result = { status: 'passed' as const, tests: [], exitCode: 0, command: 'go test', durationMs: 1 };
    const runner = { ...never, run: async () => result };
    expect(await wrapRunner(runner, origin, recorder().logger).run(ctx(new AbortController().signal))).toBe(
      result,
    );
  });
});
