import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FailureSchema, ScopeSchema, type Scope } from '@suture/core';
import { silentLogger } from '@suture/core/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cppAnalyzer } from './index.js';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'suture-cpp-scope-'));
  await mkdir(join(root, 'src'));
  await mkdir(join(root, 'tests'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function scopeOf(test: string, file: string, line: number): Promise<Scope> {
  const failure = FailureSchema.parse({
    id: 'p:x',
    kind: 'assertion',
    title: 'EXPECT_EQ',
    tests: [test],
    location: { file, line, symbol: test.split('::')[1] },
    evidence: 'EXPECT_EQ',
    fingerprint: 'x',
    repairable: true,
  });
  return ScopeSchema.parse(
    await cppAnalyzer().scope(failure, { name: 'c', root, scopeDepth: 3, logger: silentLogger }),
  );
}

describe('the C/C++ scope on files it should not read whole', () => {
  it('skips a 10 MB generated header with a reason and still scopes the rest', async () => {
    await writeFile(
      join(root, 'src/generated.h'),
      `static const int TABLE[] = {\n${'  1, 2, 3, 4, 5, 6, 7, 8, 9, 10,\n'.repeat(300_000)}};\n`,
    );
    await writeFile(join(root, 'src/calc.h'), 'int twice(int x);\n');
    await writeFile(
      join(root, 'src/calc.cpp'),
      '#include "calc.h"\nint twice(int x) {\n  return x * 3;\n}\n',
    );
    await writeFile(
      join(root, 'tests/calc_test.cpp'),
      [
        '#include <gtest/gtest.h>',
        '#include "../src/calc.h"',
        '#include "../src/generated.h"',
        '',
        'TEST(Calc, Twice) {',
        '  EXPECT_EQ(twice(TABLE[0]), 2);',
        '}',
        '',
      ].join('\n'),
    );
    const scope = await scopeOf('calc_test::Calc.Twice', 'tests/calc_test.cpp', 6);
    expect(scope.incomplete).toMatch(
      /^scope incomplete: src\/generated\.h is \d+\.\d MB, over the 2 MB an analyzer reads; not analysed$/,
    );
    expect(scope.entries.find((e) => e.file === 'src/calc.cpp')!.ranking![0]).toMatchObject({
      symbol: 'twice',
      reason: 'called on the failing line',
    });
  });

  it('reads sources of long line and block comment runs and ranks the functions after them', async () => {
    const lines = Array.from({ length: 20_000 }, (_, i) => `// note ${i}: ${'x'.repeat(20)}`).join('\n');
    const blocks = Array.from({ length: 20_000 }, (_, i) => `/* note ${i}: ${'y'.repeat(20)} */`).join('\n');
    await writeFile(join(root, 'src/notes.h'), 'int total(const int* v, int n);\n');
    await writeFile(
      join(root, 'src/notes.cpp'),
      `${lines}\n#include "notes.h"\nint total(const int* v, int n) {\n  int s = 1;\n  for (int i = 0; i < n; i++) s += v[i];\n  return s;\n}\n`,
    );
    await writeFile(join(root, 'src/blocks.h'), `${blocks}\ninline int half(int x) { return x / 3; }\n`);
    await writeFile(
      join(root, 'tests/notes_test.cpp'),
      [
        '#include <gtest/gtest.h>',
        '#include "../src/notes.h"',
        '#include "../src/blocks.h"',
        '',
        'TEST(Notes, Total) {',
        '  const int v[] = {1, 2};',
        '  EXPECT_EQ(total(v, 2) + half(4), 5);',
        '}',
        '',
      ].join('\n'),
    );
    const scope = await scopeOf('notes_test::Notes.Total', 'tests/notes_test.cpp', 7);
    expect(scope.incomplete).toBeUndefined();
    expect(scope.entries.find((e) => e.file === 'src/notes.cpp')).toMatchObject({
      ranking: [{ symbol: 'total', line: 20_002 }],
    });
    expect(scope.entries.find((e) => e.file === 'src/blocks.h')).toMatchObject({
      ranking: [{ symbol: 'half', line: 20_001 }],
    });
  });
});
