import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FixRequest } from '@suture/core';
import { scriptedFixer } from '@suture/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gate } from './gate-support.js';

/**
 * A module whose head is 40 helper functions (about 8 kB, twice the default source budget of
 * 1,000 tokens) and whose `lookup` is 120 lines long with an off-by-one on its last line but one;
 * a test of `last` fails with the IndexError it raises, the tests of the helpers pass.
 */
const HELPERS = Array.from(
  { length: 40 },
  (_, i) =>
    `def helper${i}(x):\n    """Helper ${i}: ${'scales the value and rounds it, '.repeat(4)}"""\n    return round(x * ${i + 1}, 2)\n`,
).join('\n\n');
const LOOKUP = [
  'def lookup(values, i):',
  ...Array.from(
    { length: 120 },
    (_, k) => `    checked_${k} = len(values) + ${k}  # ${'bookkeeping '.repeat(3)}`,
  ),
  '    return values[i + 1]',
].join('\n');
let repo: string;
let requests: FixRequest[];
let bugLine: number;

beforeAll(async () => {
  repo = await mkdtemp(join(tmpdir(), 'suture-slices-'));
  const root = join(repo, 'app');
  await mkdir(join(root, 'calc'), { recursive: true });
  await mkdir(join(root, 'tests'));
  const table = `"""Lookup tables."""\n\n\n${HELPERS}\n\n${LOOKUP}\n\n\ndef last(values):\n    return lookup(values, len(values) - 1)\n`;
  bugLine = table.split('\n').indexOf('    return values[i + 1]') + 1;
  await writeFile(join(root, 'calc', '__init__.py'), '');
  await writeFile(join(root, 'calc', 'table.py'), table);
  await writeFile(
    join(root, 'tests', 'test_table.py'),
    [
      'from calc.table import helper0, helper1, helper2, last',
      '',
      '',
      'def test_helpers():',
      '    assert helper0(1) == 1',
      '    assert helper1(1) == 2',
      '    assert helper2(1) == 3',
      '',
      '',
      'def test_last():',
      '    assert last([1, 2, 3]) == 3',
      '',
    ].join('\n'),
  );
  const git = (...args: string[]): void => void execFileSync('git', args, { cwd: repo, stdio: 'ignore' });
  git('init', '-q');
  git('-c', 'user.email=t@example.com', '-c', 'user.name=t', 'add', '-A');
  git('-c', 'user.email=t@example.com', '-c', 'user.name=t', 'commit', '-qm', 'fixture');
  const fixer = scriptedFixer([{ verdict: 'unfixable', diagnosis: 'only the request is read' }]);
  // the default heal settings: a source budget of 1,000 tokens
  await gate({ repo, root, fixers: [fixer], heal: { maxAttempts: 1, flakyReruns: 0, regression: false } });
  requests = fixer.requests;
}, 120_000);

afterAll(async () => {
  await rm(repo, { recursive: true, force: true });
});

describe('the source a fixer gets for a real pytest failure', () => {
  it("holds the buggy function's raising line, marked, within the default budget, and not the module's head", () => {
    expect(requests).toHaveLength(1);
    const request = requests[0]!;
    expect(request.failure.tests).toEqual(['tests/test_table.py::test_last']);
    expect(request.tokenBudget).toBe(1000);
    const table = request.sources.filter((s) => s.file === 'calc/table.py');
    const holding = table.find((s) => s.startLine <= bugLine && bugLine <= s.endLine);
    expect(holding?.text).toContain('    return values[i + 1]');
    expect(holding?.marked).toContain(bugLine);
    // the helpers at the head of the file are not what the budget is spent on
    expect(table.some((s) => s.startLine <= 5 && s.endLine >= 5)).toBe(false);
    expect(request.sources.reduce((n, s) => n + s.text.length, 0)).toBeLessThanOrEqual(4000);
  });

  it('says which ranked code the budget left out and why', () => {
    const omitted = requests[0]!.omitted ?? [];
    // lookup is 120 lines of about 60 characters: more than the budget, so it is cut and named
    expect(omitted).toContainEqual(
      expect.objectContaining({
        file: 'calc/table.py',
        symbol: 'lookup',
        reason: expect.stringMatching(/too long/),
      }),
    );
  });
});
