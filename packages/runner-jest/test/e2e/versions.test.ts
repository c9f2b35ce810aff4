import { execFile } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import jest from '../../src/index.js';
import { foldResults, readJestJson } from '../../src/results.js';
import { cleanup, copy, run } from './support.js';

afterAll(cleanup);

/** Older majors, installed beside the workspace's Jest 30 as npm aliases (devDependencies). */
const VERSIONS = {
  '28.1.3': fileURLToPath(new URL('../../../../node_modules/jest-28/bin/jest.js', import.meta.url)),
  '29.7.0': fileURLToPath(new URL('../../../../node_modules/jest-29/bin/jest.js', import.meta.url)),
};

describe.each(Object.entries(VERSIONS))('Jest %s under suture', (version, bin) => {
  it('is the version the test means', async () => {
    const pkg = JSON.parse(await readFile(join(bin, '..', '..', 'package.json'), 'utf8')) as {
      version: string;
    };
    expect(pkg.version).toBe(version);
  });

  it('gives a green suite the ids and statuses of its own jest --ci --json run', async () => {
    const root = await copy('green');
    await promisify(execFile)(process.execPath, [bin, '--ci', '--json', '--outputFile=native.json'], {
      cwd: root,
    });
    const report = readJestJson(await readFile(join(root, 'native.json'), 'utf8'));
    if (!('json' in report)) throw new Error(report.error);
    const want = foldResults(report.json, root).tests.map((t) => [t.id, t.status]);
    const r = await run(root, { options: { jestBin: bin } });
    expect(r.status).toBe('passed');
    expect(r.tests.map((t) => [t.id, t.status]).sort()).toEqual(want.sort());
    expect(want.filter(([, s]) => s === 'passed')).toHaveLength(7);
  });

  it('leaves process.argv to in-band tests as its plain jest does, and names a failure in place', async () => {
    const argv = await run(await copy('argv'), { options: { jestBin: bin } });
    expect(argv.tests.map((t) => [t.id, t.status])).toEqual([
      ['__tests__/cli.test.js::reads the command line it was started with', 'passed'],
    ]);
    const basic = await run(await copy('basic'), { options: { jestBin: bin } });
    const total = basic.tests.find(
      (t) => t.id === '__tests__/cart.test.js::cart total applies the discount from 100',
    );
    expect(total).toMatchObject({
      status: 'failed',
      file: '__tests__/cart.test.js',
      line: expect.any(Number),
    });
    expect(total!.trace).toMatch(/Expected: 90/);
  });
});

describe('Jest 28, which does not report when a test starts', () => {
  it('stops a file whose test blocks at the file limit, names the test that ended before it, and keeps that one', async () => {
    const root = await copy('hang');
    const r = await run(root, { timeoutMs: 200_000, options: { jestBin: VERSIONS['28.1.3'] } });
    const spin = (id: string) => r.tests.find((t) => t.id === `__tests__/spin.test.js::${id}`)?.status;
    expect(spin('before the loop')).toBe('passed');
    expect(spin('spins forever')).toBeUndefined();
    expect(r.diagnostics).toContainEqual(
      expect.objectContaining({
        file: '__tests__/spin.test.js',
        code: 'Timeout',
        message: expect.stringMatching(
          /^__tests__\/spin\.test\.js ran \d+ ms without a test ending after "before the loop" and was stopped at 60000 ms: a test after that one, .*Jest 29\.6 and newer do\); if it needs longer, raise the runner option "testTimeoutMs"$/,
        ),
      }),
    );
    // the other files ran: their results are Jest's own
    expect(r.tests.find((t) => t.id === '__tests__/plain.test.js::plain fails')?.status).toBe('failed');
  }, 240_000);
});

describe('suture doctor on an older Jest', () => {
  it('warns before 29.6, where a test that blocks cannot be named, and is content from 29.6 on', async () => {
    const root = await copy('green');
    const check = async (bin: string) =>
      (await jest({ jestBin: bin }).doctor!(root)).find((c) => c.name === 'jest');
    expect(await check(VERSIONS['28.1.3'])).toMatchObject({
      status: 'warn',
      message: expect.stringMatching(
        /^jest 28\.1\.3 at .*: Jest before 29\.6 does not report when a test starts/,
      ),
      fix: 'npm install -D jest@latest',
    });
    expect(await check(VERSIONS['29.7.0'])).toMatchObject({
      status: 'ok',
      message: `jest 29.7.0 at ${VERSIONS['29.7.0']}`,
    });
  });
});

describe('a Jest that cannot start', () => {
  it('says why on the first line of the error, naming the file', async () => {
    const root = await copy('green');
    // a jestBin that is no Jest's: the entry cannot find jest-cli from it
    await mkdir(join(root, 'tools', 'bin'), { recursive: true });
    await writeFile(join(root, 'tools', 'bin', 'jest.js'), 'console.log("not jest");\n');
    const r = await run(root, { options: { jestBin: 'tools/bin/jest.js' } });
    expect(r.status).toBe('error');
    expect(r.error).toBe(
      `cannot start Jest: ${join(root, 'tools', 'bin', 'jest.js')} is not inside the jest or jest-cli package`,
    );
  });
});
