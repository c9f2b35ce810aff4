import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { GateReport } from '@suture/core';
import { createBuiltinReporter } from '@suture/core/internal';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, copy, gate } from './support.js';

afterAll(cleanup);

/** `<testcase>` elements of a JUnit file: name, whether they hold a failure, and the suite's counts. */
function junitCases(xml: string): {
  cases: Record<string, 'passed' | 'failed'>;
  suite: Record<string, string>;
} {
  const cases: Record<string, 'passed' | 'failed'> = {};
  for (const m of xml.matchAll(/<testcase\b[^>]*\bname="([^"]*)"[^>]*?(\/>|>([\s\S]*?)<\/testcase>)/g))
    cases[m[1]!] = /<(failure|error)\b/.test(m[3] ?? '') ? 'failed' : 'passed';
  const suite = /<testsuite\b([^>]*)>/.exec(xml)?.[1] ?? '';
  return {
    cases,
    suite: Object.fromEntries([...suite.matchAll(/(\w+)="([^"]*)"/g)].map((a) => [a[1]!, a[2]!])),
  };
}

describe('a whole GoogleTest binary under an entry whose name holds ::, through the gate', () => {
  let root: string;
  let report: GateReport;
  let xml: string;
  beforeAll(async () => {
    root = await copy('entry-names');
    report = await gate(root, {
      mode: 'no-heal',
      reporters: [createBuiltinReporter('junit', {}, { stream: process.stderr, env: {} })!],
    });
    xml = await readFile(join(root, '.suture/runs', report.runId, 'results.xml'), 'utf8');
  }, 600_000);

  it('counts every case of the binary, the passing ones too, in the totals', () => {
    expect(report.totals).toMatchObject({ tests: 4, passed: 3, failed: 1, skipped: 0 });
  });

  it('writes each case as a JUnit test case, with a failure only on the failing one', () => {
    const { cases, suite } = junitCases(xml);
    expect(cases).toEqual({
      'Twice.Doubles': 'failed',
      'Halve.Halves': 'passed',
      'Small/Sizes.HalveUndoesTwice/0': 'passed',
      'Small/Sizes.HalveUndoesTwice/1': 'passed',
    });
    expect(suite).toMatchObject({ name: 'calc', tests: '4', failures: '1', errors: '0' });
  });
});
