import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { JestJsonSchema } from '../../src/results.js';
import { cleanup, copy, run } from './support.js';

afterAll(cleanup);

const JEST = fileURLToPath(new URL('../../../../node_modules/jest/bin/jest.js', import.meta.url));
const FILE = '__tests__/mode.test.js';

describe('a test file that runs in two Jest projects', () => {
  it('is two runs of each test, one per project, as Jest counts them, and a re-run runs the project asked', async () => {
    const root = await copy('projects');
    await promisify(execFile)(process.execPath, [JEST, '--ci', '--json', '--outputFile=native.json'], {
      cwd: root,
    }).catch(() => undefined);
    const native = JestJsonSchema.parse(JSON.parse(await readFile(join(root, 'native.json'), 'utf8')));
    expect([native.numTotalTests, native.numPassedTests, native.numFailedTests]).toEqual([4, 3, 1]);

    const r = await run(root);
    expect(r.tests.map((t) => [t.id, t.status]).sort()).toEqual([
      [`[alpha] ${FILE}::runs anywhere`, 'passed'],
      [`[alpha] ${FILE}::runs in alpha`, 'passed'],
      [`[beta] ${FILE}::runs anywhere`, 'passed'],
      [`[beta] ${FILE}::runs in alpha`, 'failed'],
    ]);
    const failed = r.tests.find((t) => t.status === 'failed')!;
    expect(failed).toMatchObject({ file: FILE, line: 2, name: 'runs in alpha' });
    expect(failed.message).toMatch(/Expected: "alpha"/);

    // the failing test alone, in its own project: the other project's run of it is not started
    const again = await run(root, { selection: [failed.id] });
    expect(again.tests.map((t) => [t.id, t.status])).toEqual([[failed.id, 'failed']]);
    expect(again.outputTail).toMatch(/FAIL\s+beta\s+__tests__\/mode\.test\.js/);
    expect(again.outputTail).not.toMatch(/\balpha\s+__tests__/);
    const passing = await run(root, { selection: [`[alpha] ${FILE}::runs in alpha`] });
    expect(passing.tests.map((t) => [t.id, t.status])).toEqual([
      [`[alpha] ${FILE}::runs in alpha`, 'passed'],
    ]);
  }, 120_000);
});
