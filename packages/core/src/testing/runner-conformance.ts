import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { FailureSchema, ScopeSchema } from '../api/contracts/failure.js';
import { RunResultSchema, type RunResult } from '../api/contracts/run-result.js';
import type { Analyzer, ProjectInfo, RunContext, Runner } from '../api/plugin.js';
import { checkApiVersion } from '../host/api-version.js';
import { wrapRunner } from '../host/wrap-plugin.js';
import { check, copyFixture, diffSnapshots, silentLogger, snapshotTree } from './conformance-utils.js';
import { checkDefinitionLines } from './definition-lines.js';
import type { RunnerFixture } from './runner-fixture.js';
import { stopCases } from './stop-cases.js';

export type { HangFixture, RunnerFixture } from './runner-fixture.js';

export interface ConformanceCase {
  name: string;
  run: () => Promise<void>;
}

interface Shared {
  root: string;
  full: RunResult;
  /** What the full run of the fixture threw, when it threw: the cases that need it cannot run. */
  thrown?: string;
}

const SHAPE = 'has the plugin shape';
const FULL_RUN = 'reports every test of a full run with a valid RunResult';

/**
 * The checks every runner must pass, as named cases. A runner author registers them with their
 * test framework (`registerRunnerConformance`) or runs them directly. They use the real toolchain
 * on a real copy of the fixture, and call the runner (and its analyzer) through the wrapper the
 * gate uses, so what they certify is what the gate gets.
 */
export function runnerConformanceCases(
  runner: Runner,
  fixture: RunnerFixture,
): { cases: ConformanceCase[]; setup: () => Promise<void>; teardown: () => Promise<void> } {
  const plugin = runner;
  runner = wrapRunner(plugin, undefined, silentLogger);
  let shared: Shared | undefined;
  let dispose: (() => Promise<void>) | undefined;
  let before: Map<string, string> | undefined;
  const ignore = ['.suture/**', ...(fixture.writes ?? [])];
  const timeoutMs = fixture.timeoutMs ?? 120_000;

  const ctx = async (root: string, extra: Partial<RunContext> = {}): Promise<RunContext> => ({
    root,
    timeoutMs,
    signal: new AbortController().signal,
    logger: silentLogger,
    workDir: await mkdtemp(join(tmpdir(), 'suture-conformance-work-')),
    ...extra,
  });
  const run = async (
    extra: Partial<RunContext> = {},
    on = runner,
    root = shared!.root,
  ): Promise<RunResult> => {
    const context = await ctx(root, extra);
    try {
      return RunResultSchema.parse(await on.run(context));
    } finally {
      await rm(context.workDir, { recursive: true, force: true });
    }
  };
  const need = <K extends keyof RunnerFixture>(key: K, why: string): NonNullable<RunnerFixture[K]> => {
    check(fixture[key] !== undefined, `fixture.${key} is missing: ${why}`);
    return fixture[key]!;
  };
  const analyzer = (): Analyzer => {
    check(
      typeof runner.analyzer === 'function',
      'runner.analyzer() is missing: a runner must say which analyzer fits its results',
    );
    return runner.analyzer!();
  };
  const project = (): ProjectInfo => ({
    name: 'conformance',
    root: shared!.root,
    scopeDepth: 3,
    logger: silentLogger,
  });

  const cases: ConformanceCase[] = [
    {
      name: SHAPE,
      run: async () => {
        check(typeof plugin.name === 'string' && plugin.name.length > 0, 'name must be a non-empty string');
        const api = checkApiVersion(plugin);
        check(api.ok, `this @suture/core would refuse the runner: ${api.ok ? '' : api.reason}`);
        check(
          typeof plugin.language === 'string' && plugin.language.length > 0,
          'language must be a non-empty string',
        );
        check(typeof plugin.supportsSelection === 'boolean', 'supportsSelection must be a boolean');
        check(typeof plugin.run === 'function', 'run must be a function');
      },
    },
    {
      name: FULL_RUN,
      run: async () => {
        const { full } = shared!;
        check(
          full.status === 'failed',
          `a suite with failing tests must have status "failed", got "${full.status}"${full.error ? `: ${full.error}` : ''}`,
        );
        const byId = new Map(full.tests.map((t) => [t.id, t]));
        check(byId.size === full.tests.length, 'test ids must be unique within a run');
        for (const id of fixture.failing) {
          const t = byId.get(id);
          check(
            t,
            `failing test "${id}" missing from the results; got: ${[...byId.keys()].slice(0, 20).join(', ')}`,
          );
          check(t.status !== 'passed' && t.status !== 'skipped', `"${id}" must not pass, got ${t.status}`);
        }
        for (const id of fixture.passing)
          check(byId.get(id)?.status === 'passed', `passing test "${id}" must be reported as passed`);
        check(typeof full.command === 'string' && full.command.length > 0, 'command must say what ran');
      },
    },
    {
      name: 'locates each test at the 1-based line of its definition',
      run: async () => {
        await checkDefinitionLines(
          shared!.root,
          shared!.full.tests,
          [...fixture.failing, ...fixture.passing],
          fixture.definitions,
        );
      },
    },
    {
      name: 'runs exactly the selected tests',
      run: async () => {
        if (!runner.supportsSelection) return;
        const target = fixture.failing[0]!;
        const result = await run({ selection: [target] });
        check(result.selected, 'a run with a selection must set selected: true');
        const ran = result.tests.filter((t) => t.status !== 'skipped');
        checkSameIds([target], result, shared!.full);
        check(
          ran.some((t) => t.id === target && t.status !== 'passed'),
          `the selected failing test "${target}" must run and fail, got ${ran.find((t) => t.id === target)?.status ?? 'skipped'}`,
        );
        const others = ran.filter((t) => t.id !== target).map((t) => t.id);
        check(others.length === 0, `only "${target}" should run, but these ran too: ${others.join(', ')}`);
        const pass = fixture.passing[0]!;
        const passing = await run({ selection: [pass] });
        checkSameIds([pass], passing, shared!.full);
        check(
          passing.status === 'passed',
          `selecting the passing test "${pass}" must give status passed, got ${passing.status}${passing.error ? `: ${passing.error}` : ''}`,
        );
      },
    },
    {
      name: 'returns at once when aborted before it starts, never reporting a pass',
      run: async () => {
        const controller = new AbortController();
        controller.abort();
        const result = await run({ signal: controller.signal });
        check(result.status !== 'passed', 'an aborted run must not report status passed');
      },
    },
    ...(fixture.hang
      ? stopCases(runner, fixture.hang, fixture.tempParent, timeoutMs)
      : [
          {
            name: 'ends a hanging run at its time limit and when aborted',
            run: async () =>
              void need(
                'hang',
                'declare a project whose test never ends, so the kit can check timeouts and aborts',
              ),
          },
        ]),
    {
      name: 'reports a build or collection error as a diagnostic',
      run: async () => {
        const broken = need('buildError', 'declare a project whose build or collection fails, and where');
        const copy = await copyFixture(broken.path, fixture.tempParent);
        try {
          const result = await run({}, runner, copy.root);
          check(result.status !== 'passed', 'a project that does not build must not pass');
          const where = `${broken.file}${broken.line ? `:${broken.line}` : ''}`;
          const hit = result.diagnostics.find(
            (d) =>
              d.severity === 'error' &&
              d.file === broken.file &&
              (broken.line === undefined || d.line === broken.line),
          );
          check(
            hit,
            `expected an error diagnostic at ${where} (project-relative file, 1-based line); got ${
              result.diagnostics
                .map((d) => `${d.file ?? '?'}:${d.line ?? '?'} ${d.message.slice(0, 60)}`)
                .join('; ') ||
              `no diagnostics (status ${result.status}${result.error ? `: ${result.error.slice(0, 200)}` : ''})`
            }`,
          );
        } finally {
          await copy.dispose();
        }
      },
    },
    {
      name: 'reports a missing toolchain as an error result that says what to install',
      run: async () => {
        const missing = need(
          'missingToolchain',
          'give the runner configured with a tool that is not installed, e.g. runner({ binary: "/nonexistent/tool" })',
        );
        // a copy in the OS temp folder, away from tools installed in the repository (node_modules)
        const copy = await copyFixture(fixture.path);
        let result: RunResult;
        try {
          result = await run({}, wrapRunner(missing, undefined, silentLogger), copy.root);
        } catch (error) {
          throw new Error(
            `run() threw instead of returning a RunResult with status "error": ${(error as Error).message}`,
          );
        } finally {
          await copy.dispose();
        }
        check(
          result.status === 'error',
          `a missing toolchain must give status "error", got "${result.status}"`,
        );
        check(
          /\binstall/i.test(result.error ?? ''),
          `the error must say what to install, got: ${result.error ?? '(no error text)'}`,
        );
        check(!result.tests.some((t) => t.status === 'passed'), 'no test can pass without the toolchain');
      },
    },
    {
      name: 'does not write into the project outside its own folders',
      run: async () => {
        const after = await snapshotTree(shared!.root, ignore);
        const changes = diffSnapshots(before!, after);
        check(
          changes.length === 0,
          `the runner changed project files: ${changes.join(', ')} (declare build folders in fixture.writes)`,
        );
      },
    },
    {
      name: 'detects the fixture project',
      run: async () => {
        if (!runner.detect) return;
        const detected = await runner.detect(shared!.root);
        check(detected !== null, 'detect() must recognise the fixture project');
        check(typeof detected.reason === 'string' && detected.reason.length > 0, 'detect() must say why');
      },
    },
    {
      name: 'its analyzer explains every failing test and justifies a scope',
      run: async () => {
        const a = analyzer();
        const api = checkApiVersion(a);
        check(api.ok, `this @suture/core would refuse the analyzer: ${api.ok ? '' : api.reason}`);
        const failures = (await a.analyze(shared!.full, project())).map((f) => FailureSchema.parse(f));
        check(failures.length > 0, 'analyze() found no failure in a failing run');
        for (const id of fixture.failing) {
          check(
            failures.some((f) => f.tests.includes(id) || f.blocksAll),
            `no failure explains the failing test "${id}"`,
          );
        }
        const fingerprints = new Set(failures.map((f) => f.fingerprint));
        check(
          fingerprints.size === failures.length,
          'failures with the same fingerprint must be grouped into one',
        );
        const scope = ScopeSchema.parse(await a.scope(failures[0]!, project()));
        check(scope.entries.length > 0, 'scope() of a failure must not be empty');
        for (const e of scope.entries)
          check(
            !isAbsolute(e.file) && !e.file.startsWith('..'),
            `scope file must be project-relative: ${e.file}`,
          );
      },
    },
  ];

  return {
    cases: cases.map((c) => (c.name === SHAPE ? c : { ...c, run: () => unlessThrown(shared, c) })),
    async setup() {
      const copy = await copyFixture(fixture.path, fixture.tempParent);
      dispose = copy.dispose;
      before = await snapshotTree(copy.root, ignore);
      shared = {
        root: copy.root,
        full: RunResultSchema.parse({
          status: 'error',
          tests: [],
          exitCode: null,
          command: 'not run',
          durationMs: 0,
        }),
      };
      const context = await ctx(copy.root);
      try {
        shared.full = RunResultSchema.parse(await runner.run(context));
      } catch (error) {
        // thrown from beforeAll, it would skip every case without a word: the cases say it instead
        shared.thrown = error instanceof Error ? error.message : String(error);
      } finally {
        await rm(context.workDir, { recursive: true, force: true });
      }
    },
    async teardown() {
      await dispose?.();
    },
  };
}

/** Runs a case that needs the full run, or fails it with what the full run threw. */
async function unlessThrown(shared: Shared | undefined, c: ConformanceCase): Promise<void> {
  const thrown = shared?.thrown;
  if (thrown === undefined) return c.run();
  check(
    c.name !== FULL_RUN,
    `run() threw on the fixture project: ${thrown}\na runner throws only when it is itself broken; a failing test, a build error or a missing tool is a RunResult`,
  );
  check(false, `not run: it needs the fixture's full run, which threw (see "${FULL_RUN}")`);
}

/**
 * A selected run must report its tests under the ids the full run gave them: the engine selects
 * the ids it read from the full run, and a test that comes back under another id is never found.
 */
function checkSameIds(selection: readonly string[], result: RunResult, full: RunResult): void {
  const ids = new Set(result.tests.map((t) => t.id));
  const missing = selection.filter((id) => !ids.has(id));
  if (missing.length === 0) return;
  const known = new Set(full.tests.map((t) => t.id));
  const renamed = result.tests.map((t) => t.id).filter((id) => !known.has(id));
  check(
    false,
    `a run selecting ${missing.map((id) => `"${id}"`).join(', ')} reported no test of that id${
      renamed.length > 0
        ? `, but ${renamed.map((id) => `"${id}"`).join(', ')}, which the full run did not report`
        : result.tests.length > 0
          ? `; it reported ${result.tests.map((t) => `"${t.id}"`).join(', ')}`
          : '; it reported no test'
    }: a test's id must be the same in a selected run as in the full run`,
  );
}

export interface TestApi {
  describe: (name: string, fn: () => void) => void;
  it: (name: string, fn: () => Promise<void>, timeout?: number) => void;
  beforeAll: (fn: () => Promise<void>, timeout?: number) => void;
  afterAll: (fn: () => Promise<void>, timeout?: number) => void;
}

/**
 * Registers the runner conformance suite with a test framework (vitest, jest, node:test adapters):
 * `registerRunnerConformance({ describe, it, beforeAll, afterAll }, pytest(), { path, failing, passing })`.
 */
export function registerRunnerConformance(api: TestApi, runner: Runner, fixture: RunnerFixture): void {
  const suite = runnerConformanceCases(runner, fixture);
  const timeout = (fixture.timeoutMs ?? 120_000) * 3;
  api.describe(`${runner.name} runner conformance`, () => {
    api.beforeAll(suite.setup, timeout);
    api.afterAll(suite.teardown, timeout);
    for (const c of suite.cases) api.it(c.name, c.run, timeout);
  });
}
