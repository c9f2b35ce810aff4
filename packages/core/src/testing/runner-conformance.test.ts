import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Runner } from '../api/plugin.js';
import { checksRunner, type ChecksRunnerOptions } from './checks-runner.test-support.js';
import {
  registerRunnerConformance,
  runnerConformanceCases,
  type RunnerFixture,
} from './runner-conformance.js';

const fixtures = (name: string): string =>
  fileURLToPath(new URL(`./__fixtures__/checks/${name}`, import.meta.url));

const fixture: RunnerFixture = {
  path: fixtures('basic'),
  failing: ['checks/math.checks::subtracts'],
  passing: ['checks/math.checks::adds two numbers', 'checks/math.checks::multiplies'],
  hang: {
    path: fixtures('hang'),
    test: 'checks/wait.checks::waits forever',
    timeoutMs: 1500,
    graceMs: 2500,
    abortAfterMs: 500,
  },
  buildError: { path: fixtures('broken'), file: 'checks/bad.checks', line: 2 },
  missingToolchain: checksRunner({ shell: '/nonexistent/sh' }),
  timeoutMs: 20_000,
};

// A correct runner passes every check of the kit.
registerRunnerConformance({ describe, it, beforeAll, afterAll }, checksRunner(), fixture);

/** Runs one named case of the kit against a runner: the error it fails with, or undefined. */
async function failureOf(
  runner: Runner,
  name: string,
  over: Partial<RunnerFixture> = {},
): Promise<string | undefined> {
  const suite = runnerConformanceCases(runner, { ...fixture, ...over });
  const found = suite.cases.find((c) => c.name === name);
  if (!found) throw new Error(`no case named "${name}": ${suite.cases.map((c) => c.name).join(', ')}`);
  await suite.setup();
  try {
    await found.run();
    return undefined;
  } catch (error) {
    return (error as Error).message;
  } finally {
    await suite.teardown();
  }
}

const broken = (defects: ChecksRunnerOptions['defects']): Runner => checksRunner({ defects });

describe('the runner kit fails a runner that', () => {
  it('reports 0-based lines', async () => {
    const message = await failureOf(
      broken({ zeroBasedLines: true }),
      'locates each test at the 1-based line of its definition',
    );
    expect(message).toMatch(
      /test "checks\/math\.checks::adds two numbers" is reported at checks\/math\.checks:1, which reads "# arithmetic.*" and does not name it \(the next line does: are lines 0-based\?\)/,
    );
  });

  it('ignores the abort signal', async () => {
    const message = await failureOf(
      broken({ ignoresAbort: true }),
      'ends a run promptly when aborted and kills its process group',
    );
    expect(message).toMatch(/the run was still going 2500 ms after ctx\.signal was aborted/);
  });

  it('ignores timeoutMs', async () => {
    const message = await failureOf(
      broken({ ignoresTimeout: true }),
      'ends a hanging run at its time limit and kills its process group',
    );
    expect(message).toMatch(/still going 2500 ms after its time limit of 1500 ms: honour ctx\.timeoutMs/);
  });

  it('throws or returns no install hint when its toolchain is missing', async () => {
    const silent: Runner = {
      ...checksRunner(),
      run: async () => ({
        status: 'error',
        tests: [],
        exitCode: null,
        command: 'sh',
        durationMs: 0,
        error: 'ENOENT',
      }),
    };
    expect(
      await failureOf(
        checksRunner(),
        'reports a missing toolchain as an error result that says what to install',
        {
          missingToolchain: silent,
        },
      ),
    ).toMatch(/the error must say what to install, got: ENOENT/);
  });

  it('reports a build error without a diagnostic at its place', async () => {
    expect(
      await failureOf(checksRunner(), 'reports a build or collection error as a diagnostic', {
        buildError: { path: fixtures('broken'), file: 'checks/bad.checks', line: 1 },
      }),
    ).toMatch(
      /expected an error diagnostic at checks\/bad\.checks:1 .*; got checks\/bad\.checks:2 expected "name: command"/,
    );
  });

  it('leaves processes behind when its time limit strikes', async () => {
    const helpers: ChildProcess[] = [];
    const leaky: Runner = {
      ...checksRunner(),
      async run(ctx) {
        // a helper in a process group of its own, which the kill at the time limit never reaches
        helpers.push(spawn('sh', ['-c', 'sleep 600'], { cwd: ctx.root, detached: true, stdio: 'ignore' }));
        return checksRunner().run(ctx);
      },
    };
    let message: string | undefined;
    try {
      message = await failureOf(leaky, 'ends a hanging run at its time limit and kills its process group');
    } finally {
      for (const h of helpers)
        if (h.exitCode === null && h.signalCode === null) process.kill(-h.pid!, 'SIGKILL');
    }
    expect(message).toMatch(/processes of the run outlived it: pid \d+ \(group \d+\): sh -c sleep 600/);
  });

  it('changes the ids of its tests in a selected run, naming the ids it expected and got', async () => {
    const inner = checksRunner();
    const renames: Runner = {
      ...inner,
      async run(ctx) {
        const result = await inner.run(ctx);
        if (!ctx.selection) return result;
        return { ...result, tests: result.tests.map((t) => ({ ...t, id: `./${t.id}` })) };
      },
    };
    expect(await failureOf(renames, 'runs exactly the selected tests')).toBe(
      'a run selecting "checks/math.checks::subtracts" reported no test of that id, but "./checks/math.checks::subtracts", which the full run did not report: a test\'s id must be the same in a selected run as in the full run',
    );
  });

  it('throws from run: the first case that needs the run fails with its message, the others say why they did not run', async () => {
    const throws: Runner = {
      ...checksRunner(),
      run: () => Promise.reject(new Error('go: cannot find main module; see go help modules')),
    };
    const suite = runnerConformanceCases(throws, fixture);
    await suite.setup();
    const outcomes: Array<[string, string]> = [];
    try {
      for (const c of suite.cases)
        outcomes.push([
          c.name,
          await c.run().then(
            () => 'passed',
            (error: Error) => error.message,
          ),
        ]);
    } finally {
      await suite.teardown();
    }
    const [shape, full, ...rest] = outcomes;
    expect(shape).toEqual(['has the plugin shape', 'passed']);
    expect(full![0]).toBe('reports every test of a full run with a valid RunResult');
    expect(full![1]).toMatch(
      /^run\(\) threw on the fixture project: .*go: cannot find main module; see go help modules\na runner throws only when it is itself broken/,
    );
    expect(rest.length).toBeGreaterThan(5);
    for (const [name, message] of rest)
      expect(message, name).toBe(
        'not run: it needs the fixture\'s full run, which threw (see "reports every test of a full run with a valid RunResult")',
      );
  });

  it('never returns from a selected run: the kit, like the gate, gives it up at its limit and names it', async () => {
    const inner = checksRunner();
    const stuck: Runner = {
      ...inner,
      run: (ctx) => (ctx.selection ? new Promise(() => {}) : inner.run(ctx)),
    };
    expect(await failureOf(stuck, 'runs exactly the selected tests', { timeoutMs: 1000 })).toMatch(
      new RegExp(`^${inner.name}: run did not return within 10 s after its time limit of 1 s`),
    );
  }, 30_000);
});
