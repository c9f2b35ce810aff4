import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FailureSchema, ScopeSchema } from '@suture/core';
import { silentLogger } from '@suture/core/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { pythonAnalyzer } from './index.js';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'suture-py-scope-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const failing = (test: string, line: number) =>
  FailureSchema.parse({
    id: 'p:x',
    kind: 'assertion',
    title: 'assert',
    tests: [test],
    location: { file: test.split('::')[0], line, symbol: test.split('::')[1] },
    evidence: 'assert',
    fingerprint: 'x',
    repairable: true,
  });

describe('the Python scope on files it should not read whole', () => {
  it('skips a 10 MB generated module with a reason and still scopes the rest', async () => {
    await mkdir(join(root, 'tests'));
    await writeFile(
      join(root, 'generated.py'),
      `TABLE = [\n${'    (1, 2, 3, 4, 5, 6, 7, 8, 9, 10),\n'.repeat(300_000)}]\n\n\ndef lookup(i):\n    return TABLE[i]\n`,
    );
    await writeFile(join(root, 'calc.py'), 'def double(x):\n    return x * 3\n');
    await writeFile(
      join(root, 'tests/test_calc.py'),
      'from calc import double\nfrom generated import lookup\n\n\ndef test_double():\n    assert double(lookup(0)[0]) == 2\n',
    );
    const scope = ScopeSchema.parse(
      await pythonAnalyzer({ trace: false }).scope(failing('tests/test_calc.py::test_double', 6), {
        name: 'p',
        root,
        scopeDepth: 3,
        logger: silentLogger,
      }),
    );
    expect(scope.incomplete).toMatch(
      /^scope incomplete: generated\.py is \d+\.\d MB, over the 2 MB an analyzer reads; not analysed$/,
    );
    expect(scope.entries.find((e) => e.file === 'calc.py')!.ranking![0]).toMatchObject({
      symbol: 'double',
      reason: 'called on the failing line',
    });
  });

  it('reads a module of long comment runs and ranks the function in it', async () => {
    await mkdir(join(root, 'tests'));
    const comments = Array.from({ length: 20_000 }, (_, i) => `# note ${i}: ${'x'.repeat(20)}`).join('\n');
    await writeFile(
      join(root, 'notes.py'),
      `${comments}\n\n\ndef total(values):\n    ${comments.slice(0, 2000).replace(/\n/g, '\n    ')}\n    return sum(values) + 1\n`,
    );
    await writeFile(
      join(root, 'tests/test_notes.py'),
      'from notes import total\n\n\ndef test_total():\n    assert total([1, 2]) == 3\n',
    );
    const scope = ScopeSchema.parse(
      await pythonAnalyzer({ trace: false }).scope(failing('tests/test_notes.py::test_total', 5), {
        name: 'p',
        root,
        scopeDepth: 3,
        logger: silentLogger,
      }),
    );
    expect(scope.incomplete).toBeUndefined();
    expect(scope.entries[0]).toMatchObject({
      file: 'notes.py',
      ranking: [{ symbol: 'total', line: 20_003 }],
    });
  });
});
