import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import jest from '../../src/index.js';
import { cleanup, copy, project, run } from './support.js';

afterAll(cleanup);

const statuses = (r: { tests: Array<{ id: string; status: string }> }): string[][] =>
  r.tests.map((t) => [t.id, t.status]).sort((a, b) => a[0]!.localeCompare(b[0]!));

// The cases spend most of their time waiting out time limits, so they run concurrently.
describe.concurrent('Jest time limits', () => {
  // Alone, the slowest case here takes about 45 s (a 30 s limit and two Jest start-ups); the bound is
  // for CI, where two packages' suites share two cores.
  describe('Jest runner per-test limits', () => {
    it('with default settings, names a synchronous loop and a promise that never settles as timeouts and keeps every other result', async () => {
      const root = await copy('hang');
      const runner = jest();
      const r = await run(root, { runner });
      expect(statuses(r)).toEqual([
        ['__tests__/plain.test.js::plain fails', 'failed'],
        ['__tests__/plain.test.js::plain passes', 'passed'],
        ['__tests__/spin.test.js::after the loop', 'passed'],
        ['__tests__/spin.test.js::before the loop', 'passed'],
        ['__tests__/spin.test.js::spins forever', 'timeout'],
        ['__tests__/wait.test.js::still runs after the wait', 'passed'],
        ['__tests__/wait.test.js::waits forever', 'timeout'],
      ]);
      // a failed run, not one cut short: every test has its result
      expect(r.status).toBe('failed');
      const spin = r.tests.find((t) => t.id === '__tests__/spin.test.js::spins forever')!;
      expect(spin).toMatchObject({ file: '__tests__/spin.test.js', line: 3 });
      expect(spin.message).toMatch(/^spins forever did not finish within 30000 ms .*blocks its worker/);
      expect(spin.message).toMatch(/raise the runner option "testTimeoutMs"/);
      const wait = r.tests.find((t) => t.id === '__tests__/wait.test.js::waits forever')!;
      expect(wait.message).toMatch(/Exceeded timeout of 5000 ms/);
      expect(wait.message).toMatch(/raise the runner option "testTimeoutMs"/);

      // its re-run (flaky triage, a fix's validation) is held to Jest's timeout, not the 30 s again
      const again = await run(root, { runner, selection: ['__tests__/spin.test.js::spins forever'] });
      expect(statuses(again)).toEqual([['__tests__/spin.test.js::spins forever', 'timeout']]);
      expect(again.tests[0]!.message).toMatch(
        /^spins forever did not finish within 7500 ms \(a re-run of a test that ran past its limit before gets its timeout of 5000 ms/,
      );
    }, 240_000);

    it('stops a loop in a worker at testTimeoutMs and keeps the results of the files other workers ran', async () => {
      const root = await copy('hang');
      // a fresh cache: with no timings Jest gives each file to a worker instead of running in-band
      await writeFile(
        join(root, 'jest.config.js'),
        'module.exports = { cacheDirectory: "<rootDir>/.cache" };\n',
      );
      const r = await run(root, { options: { args: ['--maxWorkers=2'], testTimeoutMs: 1000 } });
      expect(r.status).toBe('failed');
      const spin = r.tests.find((t) => t.id === '__tests__/spin.test.js::spins forever')!;
      expect(spin.status).toBe('timeout');
      expect(spin.message).toMatch(/did not finish within 3000 ms \(the test's timeout of 1000 ms/);
      const wait = r.tests.find((t) => t.id === '__tests__/wait.test.js::waits forever')!;
      expect(wait.message).toMatch(/Exceeded timeout of 1000 ms/);
      expect(statuses(r).filter(([, s]) => s === 'passed')).toHaveLength(4);
    });

    it('gives a re-run a limit from the duration it measured', async () => {
      const root = await copy('hang');
      const runner = jest({ env: { SPIN_UNLESS: join(root, 'fixed') } });
      await writeFile(join(root, 'fixed'), '');
      await writeFile(
        join(root, '__tests__/spin.test.js'),
        "const fs = require('node:fs');\ntest('spins once broken', () => {\n  while (!fs.existsSync(process.env.SPIN_UNLESS)) {}\n});\n",
      );
      const first = await run(root, { runner });
      expect(first.tests.find((t) => t.name === 'spins once broken')?.status).toBe('passed');
      const { rm } = await import('node:fs/promises');
      await rm(join(root, 'fixed'));
      const again = await run(root, { runner, selection: ['__tests__/spin.test.js::spins once broken'] });
      expect(again.tests.map((t) => [t.id, t.status])).toEqual([
        ['__tests__/spin.test.js::spins once broken', 'timeout'],
      ]);
      expect(again.tests[0]!.message).toMatch(
        /did not finish within 7500 ms \(a re-run may take 10 times the \d+ ms the test took before, at least its timeout of 5000 ms/,
      );
    });
  });

  describe('Jest stuck outside any test', () => {
    it('stops a test file whose top-level code or teardown never returns, reports it with the option to raise, keeps the tests that ended, and runs the others', async () => {
      const root = await copy('hang-top');
      // two workers: the two files that never end are stopped together, at one limit
      const r = await run(root, { timeoutMs: 280_000, options: { args: ['--maxWorkers=2'] } });
      expect(r.status).toBe('failed');
      expect(r.tests.map((t) => [t.id, t.status]).sort()).toEqual([
        ['__tests__/ok.test.js::fine', 'passed'],
        ['__tests__/teardown.test.js::runs before the teardown', 'passed'],
        ['__tests__/teardown.test.js::runs too', 'passed'],
      ]);
      expect(r.tests.find((t) => t.name === 'runs too')).toMatchObject({
        file: '__tests__/teardown.test.js',
        line: 6,
      });
      const stoppedAt = (file: string) =>
        expect.objectContaining({
          file,
          code: 'Timeout',
          message: expect.stringMatching(
            /ran \d+ ms outside any test .* stopped at 60000 ms; if it needs longer, raise the runner option "testTimeoutMs"/,
          ),
        });
      expect(r.diagnostics).toHaveLength(2);
      expect(r.diagnostics).toEqual(
        expect.arrayContaining([stoppedAt('__tests__/top.test.js'), stoppedAt('__tests__/teardown.test.js')]),
      );
    }, 300_000);
  });

  describe('Jest that does not exit', () => {
    it('is stopped once its run has returned, with its results and exit code, not held to the run limit', async () => {
      const root = await copy('linger');
      const r = await run(root, { timeoutMs: 100_000 });
      expect(r.status).toBe('passed');
      expect(r.exitCode).toBe(0);
      expect(r.tests.map((t) => [t.name, t.status])).toEqual([['starts a server it never closes', 'passed']]);
      expect(r.outputTail).toMatch(/Jest did not exit one second after/);
      expect(r.outputTail).toMatch(/\[suture\] Jest was stopped 10 s after its run ended/);
    });
  });

  describe('a test stopped at its limit', () => {
    it('is placed at its own test, not at a failure Jest printed before it', async () => {
      const root = await copy('hang-after-failure');
      const r = await run(root, { options: { args: ['--runInBand'], testTimeoutMs: 1000 } });
      expect(statuses(r)).toEqual([
        ['__tests__/arithmetic.test.js::arithmetic doubles', 'passed'],
        ['__tests__/arithmetic.test.js::arithmetic doubles badly', 'failed'],
        ['__tests__/spin.test.js::spins forever', 'timeout'],
      ]);
      // the arithmetic failure was printed before the loop started: it is not the loop's evidence
      expect(r.outputTail).toMatch(/arithmetic › doubles badly/);
      const spin = r.tests.find((t) => t.status === 'timeout')!;
      expect(`${spin.message ?? ''}${spin.trace ?? ''}`).not.toMatch(/arithmetic|double/);
      const failures = await jest().analyzer!().analyze(r, project(root));
      const timeout = failures.find((f) => f.kind === 'timeout')!;
      // at the line where the loop was when it was stopped, in its own test
      expect(timeout.location).toMatchObject({
        file: '__tests__/spin.test.js',
        line: 2,
        symbol: 'spins forever',
      });
      expect(timeout.evidence).not.toMatch(/arithmetic/);
    }, 120_000);
  });
});
