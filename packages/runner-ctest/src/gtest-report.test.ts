import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readGtestReports } from './gtest-report.js';

const dirs: string[] = [];
afterEach(async () => {
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

/** GoogleTest's JSON report of one program, as `--gtest_output=json:` writes it. */
const report = (cases: Array<[suite: string, name: string, extra?: object]>): string =>
  JSON.stringify({
    testsuites: [...new Set(cases.map((c) => c[0]))].map((suite) => ({
      name: suite,
      testsuite: cases
        .filter((c) => c[0] === suite)
        .map(([, name, extra]) => ({ name, status: 'RUN', result: 'COMPLETED', ...extra })),
    })),
  });

async function dirWith(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'suture-gtest-report-'));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text);
  return dir;
}

describe("GoogleTest's own reports", () => {
  it("are read per binary, from each program's file (name.json, name_1.json, ...), the longest name first", async () => {
    const dir = await dirWith({
      'calc.json': report([['Calc', 'Adds']]),
      'calc_1.json': report([['Calc', 'Twice', { failures: [{ failure: 'calc.cpp:3\nExpected 4' }] }]]),
      'calc_2.json': report([['Nums/ParamT', 'IsEven/1', { result: 'SKIPPED' }]]),
      'calc_test.json': report([['Other', 'One']]),
      // two programs wrote it at once
      'calc_3.json': '{"testsuites": [',
    });
    const r = await readGtestReports([dir], ['/build/calc', 'calc_test']);
    expect(Object.fromEntries(r.get('calc')!)).toEqual({
      'Calc.Adds': { status: 'passed' },
      'Calc.Twice': { status: 'failed', message: 'calc.cpp:3\nExpected 4' },
      'Nums/ParamT.IsEven/1': { status: 'skipped' },
    });
    expect([...r.get('calc_test')!.keys()]).toEqual(['Other.One']);
  });

  it('keep a failure over a pass, and a result over a case that did not run', async () => {
    const a = await dirWith({
      'x.json': report([
        ['S', 'A', { failures: [{ failure: 'boom' }] }],
        ['S', 'B'],
      ]),
    });
    const b = await dirWith({
      'x.json': report([
        ['S', 'A'],
        ['S', 'B', { status: 'NOTRUN' }],
      ]),
    });
    const r = await readGtestReports([a, b], ['x']);
    expect(r.get('x')!.get('S.A')).toEqual({ status: 'failed', message: 'boom' });
    expect(r.get('x')!.get('S.B')).toEqual({ status: 'passed' });
  });
});
