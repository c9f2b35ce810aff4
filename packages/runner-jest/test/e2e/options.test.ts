import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, copy, run } from './support.js';

afterAll(cleanup);

const CONFIG = 'config/jest.suture.config.js';
const statuses = (r: { tests: Array<{ id: string; status: string }> }): string[][] =>
  r.tests.map((t) => [t.id, t.status]).sort((a, b) => a[0]!.localeCompare(b[0]!));

describe('Jest runner options, each on a real Jest', () => {
  it('config: Jest reads the named config file, which alone finds these tests', async () => {
    const root = await copy('options');
    const without = await run(root);
    expect(without.status).toBe('error');
    expect(without.error).toMatch(/Jest found no test to run/);
    const r = await run(root, { options: { config: CONFIG, runInBand: true } });
    expect(statuses(r)).toEqual([
      ['checks/a.check.js::a runs in the Jest process', 'passed'],
      ['checks/b.check.js::b runs in the Jest process', 'passed'],
    ]);
    expect(r.command).toContain(`--config ${CONFIG}`);
  });

  it('runInBand: the tests run in the Jest process itself, where they would otherwise go to workers', async () => {
    const root = await copy('options');
    const workers = await run(root, { options: { config: CONFIG, args: ['--maxWorkers=2'] } });
    expect(statuses(workers).map(([, s]) => s)).toEqual(['failed', 'failed']);
    expect(workers.tests[0]!.message).toMatch(/processChild/);
    const inBand = await run(root, {
      options: { config: CONFIG, args: ['--maxWorkers=2'], runInBand: true },
    });
    expect(statuses(inBand).map(([, s]) => s)).toEqual(['passed', 'passed']);
  });

  it('args: parsed by Jest, and exactly what an in-band test finds in process.argv', async () => {
    const root = await copy('argv');
    const r = await run(root, {
      options: { args: ['--verbose'], env: { EXPECTED_OPTIONS: '{"verbose":true}' } },
    });
    expect(r.status).toBe('passed');
    // Jest's --verbose lists each test
    expect(r.outputTail).toMatch(/✓ reads the command line it was started with/);
    const wrong = await run(root, { options: { args: ['--verbose'] } });
    expect(wrong.tests[0]!.status).toBe('failed');
    expect(wrong.tests[0]!.trace).toMatch(/\+\s+"verbose": true/);
    const bad = await run(root, { options: { args: ['--bogus-flag'] } });
    expect(bad.status).toBe('error');
    expect(bad.error).toMatch(/Jest configuration error:[\s\S]*Unrecognized option "bogus-flag"/);
  });

  it('env: the variables reach the tests, and nothing of suture does', async () => {
    const root = await copy('argv');
    const { writeFile } = await import('node:fs/promises');
    // the user's own SUTURE_* variables (CI sets one) pass through; suture adds none
    const inherited = JSON.stringify(
      Object.keys(process.env)
        .filter((k) => k.startsWith('SUTURE'))
        .sort(),
    );
    await writeFile(
      join(root, '__tests__/env.test.js'),
      `test('sees the environment it was given', () => {\n  expect(process.env.GREETING).toBe('hello');\n  expect(Object.keys(process.env).filter((k) => k.startsWith('SUTURE')).sort()).toEqual(${inherited});\n  expect(process.env.NODE_ENV).toBe('test');\n});\n`,
    );
    const r = await run(root, { options: { env: { GREETING: 'hello' } } });
    expect(statuses(r)).toEqual([
      ['__tests__/cli.test.js::reads the command line it was started with', 'passed'],
      ['__tests__/env.test.js::sees the environment it was given', 'passed'],
    ]);
  });

  it('jestBin: the named Jest CLI script runs, and one that does not exist is named with the fix', async () => {
    const root = await copy('green');
    const cli = fileURLToPath(new URL('../../../../node_modules/jest-cli/bin/jest.js', import.meta.url));
    const r = await run(root, { options: { jestBin: cli } });
    expect(r.status).toBe('passed');
    expect(r.command).toContain('jest-cli/bin/jest.js');
    const missing = await run(root, { options: { jestBin: 'bin/jest.js' } });
    expect(missing.error).toMatch(/runner option "jestBin" names .*bin\/jest\.js, which does not exist/);
  });

  it('esm: true runs .mjs tests with the VM-modules flag in a project auto-detection takes for CommonJS', async () => {
    const root = await copy('esm-mjs');
    const auto = await run(root);
    expect(auto.status).toBe('failed');
    expect(auto.diagnostics.map((d) => d.file)).toEqual(['__tests__/math.test.mjs']);
    const on = await run(root, { options: { esm: true } });
    expect(statuses(on)).toEqual([['__tests__/math.test.mjs::twice', 'passed']]);
    expect(on.command).toMatch(/^node --experimental-vm-modules/);
  });

  it('testTimeoutMs: Jest fails an async test at that limit, and the message names the option', async () => {
    const root = await copy('green');
    const r = await run(root, { options: { testTimeoutMs: 1 } });
    const slow = r.tests.find((t) => t.id === '__tests__/math.test.js::top level')!;
    expect(slow.status).toBe('timeout');
    expect(slow.message).toMatch(/Exceeded timeout of 1 ms[\s\S]*raise the runner option "testTimeoutMs"/);
    // synchronous tests are not Jest's to time
    expect(r.tests.filter((t) => t.status === 'passed')).toHaveLength(6);
  });
});
