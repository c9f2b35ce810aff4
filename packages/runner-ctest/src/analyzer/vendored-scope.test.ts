import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { FailureSchema, ScopeSchema, type Scope } from '@suture/core';
import { requireToolchain, silentLogger } from '@suture/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cppAnalyzer } from './index.js';

// the build compiles two vendored libraries: the code under test calls one, nothing calls the other
const FILES: Record<string, string> = {
  'CMakeLists.txt': [
    'cmake_minimum_required(VERSION 3.16)',
    'project(vendored C)',
    'add_library(mini third_party/mini/mini.c)',
    'add_library(big vendor/big/big.c)',
    'add_library(calc src/calc.c)',
    'target_link_libraries(calc mini)',
    '',
  ].join('\n'),
  'third_party/mini/mini.h': 'int mini_twice(int x);\n',
  'third_party/mini/mini.c': '#include "mini.h"\nint mini_twice(int x) {\n  return x * 3;\n}\n',
  'vendor/big/big.h': 'int big_sum(int a, int b);\n',
  'vendor/big/big.c': '#include "big.h"\nint big_sum(int a, int b) {\n  return a + b;\n}\n',
  'src/calc.h': 'int scale(int x);\nint plain(int x);\n',
  'src/calc.c': [
    '#include "calc.h"',
    '#include "../third_party/mini/mini.h"',
    'int scale(int x) {',
    '  return mini_twice(x) + 1;',
    '}',
    'int plain(int x) {',
    '  return x * 2 + 1;',
    '}',
    '',
  ].join('\n'),
  'tests/calc_test.cpp': [
    '#include <gtest/gtest.h>',
    'extern "C" {',
    '#include "../src/calc.h"',
    '}',
    '',
    'TEST(Calc, Scale) {',
    '  EXPECT_EQ(scale(2), 5);',
    '}',
    '',
    'TEST(Calc, Plain) {',
    '  EXPECT_EQ(plain(2), 4);',
    '}',
    '',
  ].join('\n'),
};

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'suture-cpp-vendored-'));
  for (const [file, text] of Object.entries(FILES)) {
    await mkdir(dirname(join(root, file)), { recursive: true });
    await writeFile(join(root, file), text);
  }
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

async function scopeOf(test: string, line: number): Promise<Scope> {
  const failure = FailureSchema.parse({
    id: 'p:x',
    kind: 'assertion',
    title: 'EXPECT_EQ',
    tests: [test],
    location: { file: 'tests/calc_test.cpp', line, symbol: test.split('::')[1] },
    evidence: 'EXPECT_EQ',
    fingerprint: 'x',
    repairable: true,
  });
  return ScopeSchema.parse(
    await cppAnalyzer().scope(failure, { name: 'c', root, scopeDepth: 3, logger: silentLogger }),
  );
}

const vendored = (scope: Scope): string[] =>
  scope.entries.map((e) => e.file).filter((f) => /^(third_party|vendor)\//.test(f));

describe('vendored trees in the C/C++ scope', () => {
  it('enter the scope only when the failing test reaches them, though the build compiles them', async (ctx) => {
    requireToolchain(ctx, { command: 'cmake', install: 'apt-get install cmake' });
    requireToolchain(ctx, { command: 'cc', install: 'apt-get install gcc' });
    // configured as suture's build does: CMake writes the translation units it compiles
    execFileSync(
      'cmake',
      ['-S', root, '-B', join(root, 'build-suture'), '-DCMAKE_EXPORT_COMPILE_COMMANDS=ON'],
      {
        stdio: 'pipe',
      },
    );

    const reached = await scopeOf('calc_test::Calc.Scale', 7);
    expect(vendored(reached)).toEqual(['third_party/mini/mini.c']);
    expect(reached.entries.find((e) => e.file === 'third_party/mini/mini.c')!.ranking![0]).toMatchObject({
      symbol: 'mini_twice',
    });

    const notReached = await scopeOf('calc_test::Calc.Plain', 11);
    expect(notReached.entries.map((e) => e.file)).toContain('src/calc.c');
    expect(vendored(notReached)).toEqual([]);
  });
});
