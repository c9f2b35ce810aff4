import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FailureSchema, ScopeSchema, type Scope } from '@suture/core';
import { silentLogger } from '@suture/core/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { javascriptAnalyzer } from './index.js';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'suture-js-scope-'));
  await mkdir(join(root, 'src'));
  await mkdir(join(root, 'tests'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function scopeOf(test: string, line: number): Promise<Scope> {
  const [file, title] = test.split('::');
  const failure = FailureSchema.parse({
    id: 'p:x',
    kind: 'assertion',
    title: 'expect',
    tests: [test],
    location: { file, line, symbol: title },
    evidence: 'expect',
    fingerprint: 'x',
    repairable: true,
  });
  return ScopeSchema.parse(
    await javascriptAnalyzer().scope(failure, { name: 'j', root, scopeDepth: 3, logger: silentLogger }),
  );
}

describe('the JS/TS scope on files it should not read whole', () => {
  it('skips a 10 MB generated module with a reason and still scopes the rest', async () => {
    await writeFile(
      join(root, 'src/generated.js'),
      `exports.TABLE = [\n${'  [1, 2, 3, 4, 5, 6, 7, 8, 9, 10],\n'.repeat(300_000)}];\n`,
    );
    await writeFile(
      join(root, 'src/calc.js'),
      'function double(x) {\n  return x * 3;\n}\nmodule.exports = { double };\n',
    );
    await writeFile(
      join(root, 'tests/calc.test.js'),
      [
        "const { double } = require('../src/calc');",
        "const { TABLE } = require('../src/generated');",
        '',
        "test('doubles', () => {",
        '  expect(double(TABLE[0][0])).toBe(2);',
        '});',
        '',
      ].join('\n'),
    );
    const scope = await scopeOf('tests/calc.test.js::doubles', 5);
    expect(scope.incomplete).toMatch(
      /^scope incomplete: src\/generated\.js is \d+\.\d MB, over the 2 MB an analyzer reads; not analysed$/,
    );
    expect(scope.entries.find((e) => e.file === 'src/calc.js')!.ranking![0]).toMatchObject({
      symbol: 'double',
      reason: 'called on the failing line',
    });
  });

  it('reads modules of long line and block comment runs and ranks the functions after them', async () => {
    const lines = Array.from({ length: 20_000 }, (_, i) => `// note ${i}: ${'x'.repeat(20)}`).join('\n');
    const blocks = Array.from({ length: 20_000 }, (_, i) => `/* note ${i}: ${'y'.repeat(20)} */`).join('\n');
    await writeFile(
      join(root, 'src/notes.js'),
      `${lines}\nfunction total(values) {\n  return values.reduce((a, b) => a + b, 1);\n}\nmodule.exports = { total };\n`,
    );
    await writeFile(
      join(root, 'src/blocks.js'),
      `${blocks}\nfunction half(x) {\n  return x / 3;\n}\nmodule.exports = { half };\n`,
    );
    await writeFile(
      join(root, 'tests/notes.test.js'),
      [
        "const { total } = require('../src/notes');",
        "const { half } = require('../src/blocks');",
        '',
        "test('sums', () => {",
        '  expect(total([1, 2]) + half(4)).toBe(5);',
        '});',
        '',
      ].join('\n'),
    );
    const scope = await scopeOf('tests/notes.test.js::sums', 5);
    expect(scope.incomplete).toBeUndefined();
    expect(scope.entries.find((e) => e.file === 'src/notes.js')).toMatchObject({
      ranking: [{ symbol: 'total', line: 20_001 }],
    });
    expect(scope.entries.find((e) => e.file === 'src/blocks.js')).toMatchObject({
      ranking: [{ symbol: 'half', line: 20_001 }],
    });
  });
});
