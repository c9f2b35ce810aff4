import { requireToolchain } from '@suture/core/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  claudeBinary,
  isolatedEnv,
  removeHomes,
  TEST_MODEL,
} from '../../../../llm-claude-cli/test/support/claude.js';
import {
  startMockAnthropic,
  textOf,
  type MockAnthropic,
} from '../../../../llm-claude-cli/test/support/mock-anthropic.js';
import { cleanup } from '../cli-support.js';
import { createAnswer, generate, llmProject, read, reportOf, verdicts } from './llm-support.js';
import { requirePythonModule } from './support.js';

// `suture generate tests --generator claude`: the LLM generator asks the config's claude fixer,
// which runs the real `claude` binary (headless, --json-schema) against a local server speaking
// the Anthropic Messages API; the files it answers are built and run by the real toolchains.
let mock: MockAnthropic;
beforeAll(async () => {
  mock = await startMockAnthropic();
});
afterAll(async () => {
  await mock.close();
  removeHomes();
  await cleanup();
});
beforeEach(() => {
  mock.requests.length = 0;
});

const config = (runner: string): Record<string, unknown> => ({
  projects: [{ name: 'shop', root: '.', runner }],
  fixers: [
    ['claude', { command: claudeBinary(), model: TEST_MODEL, retries: 0, env: isolatedEnv(mock.url) }],
  ],
  reporters: [],
});

/** What the model was sent on its one answer call. */
function sent(): string {
  const calls = mock.fixCalls();
  expect(calls).toHaveLength(1);
  return textOf(calls[0]!);
}

describe('suture generate tests --generator claude', () => {
  it('pytest: the prompt claude sends holds the target function, its caller and an existing test, and the file is kept', async (t) => {
    requirePythonModule(t, 'coverage', 'python3 -m pip install coverage');
    const root = await llmProject('llm-python', config('pytest'));
    const content = [
      'import pytest',
      'from shop.stock import OutOfStock, reserve',
      '',
      '',
      'def test_reserve_refuses_nothing_and_too_much():',
      '    with pytest.raises(ValueError):',
      '        reserve({"tea": 1}, "tea", 0)',
      '    with pytest.raises(OutOfStock):',
      '        reserve({"tea": 1}, "tea", 2)',
      '',
    ].join('\n');
    mock.enqueue({ kind: 'tool', input: createAnswer('tests/gen/test_gen_stock_reserve.py', content) });
    const r = await generate(
      [
        'generate',
        'tests',
        'shop/stock.py::reserve',
        '--generator',
        'claude',
        '--generations',
        '1',
        '--flake-runs',
        '2',
        '--json',
      ],
      root,
    );
    const report = reportOf(r);
    expect(r.code, r.stderr).toBe(0);
    const prompt = sent();
    expect(prompt).toContain('target: shop/stock.py (reserve)');
    expect(prompt).toContain('def reserve(stock, item, qty):');
    expect(prompt).toContain('### shop/orders.py');
    expect(prompt).toContain('            reserve(stock, item, qty)');
    expect(prompt).toContain('### tests/test_stock.py');
    expect(prompt).toContain('def test_needs_reorder_below_minimum():');
    expect(verdicts(report)).toEqual({ 'tests/gen/test_gen_stock_reserve.py': 'kept' });
    expect(report.tests[0]!.covers).toBe('shop/stock.py (reserve)');
    expect(report.generations[0]!.usage).toMatchObject({ calls: 1, model: TEST_MODEL });
    const usage = report.generations[0]!.usage!;
    expect(usage.inputTokens + usage.cacheReadTokens + usage.cacheWriteTokens).toBeGreaterThan(0);
    expect(usage.costUsd).toBeGreaterThan(0);
    expect(await read(root, 'tests/gen/test_gen_stock_reserve.py')).toBe(content);
  }, 600_000);

  it('GoogleTest: the prompt holds the header and the caller, the file builds in CMake as a program of its own and is kept for the branches of sign', async (t) => {
    requireToolchain(t, { command: 'cmake', install: 'apt-get install cmake' });
    requirePythonModule(t, 'gcovr', 'python3 -m pip install gcovr');
    const root = await llmProject('llm-cpp', config('ctest'));
    const content = [
      '#include <gtest/gtest.h>',
      '#include "ops.h"',
      '',
      'TEST(Sign, OfEachSide) {',
      '  EXPECT_EQ(sign(7), 1);',
      '  EXPECT_EQ(sign(-7), -1);',
      '  EXPECT_EQ(sign(0), 0);',
      '}',
      '',
    ].join('\n');
    mock.enqueue({ kind: 'tool', input: createAnswer('tests/gen/ops_sign_test.cpp', content) });
    const r = await generate(
      [
        'generate',
        'tests',
        'src/ops.cpp::sign',
        '--generator',
        'claude',
        '--generations',
        '1',
        '--flake-runs',
        '1',
        '--json',
      ],
      root,
    );
    const report = reportOf(r);
    expect(r.code, r.stderr).toBe(0);
    const prompt = sent();
    expect(prompt).toContain('Write a new GoogleTest file of unit tests');
    expect(prompt).toContain("the target's header: src/ops.h");
    expect(prompt).toContain('### src/ops.h');
    expect(prompt).toContain('  switch (sign(delta)) {');
    expect(prompt).toContain('### tests/ops_test.cpp');
    expect(prompt).toContain('TEST(Clamp, Inside)');
    expect(verdicts(report)).toEqual({ 'tests/gen/ops_sign_test.cpp': 'kept' });
    expect(report.tests[0]!.tests).toContain('suture_gen_ops_sign_test::Sign.OfEachSide');
    expect(report.coverage.after.lines.covered).toBeGreaterThan(report.coverage.before.lines.covered);
    expect(await read(root, 'tests/gen/CMakeLists.txt')).toContain('add_executable(suture_gen_ops_sign_test');
    expect(await read(root, 'CMakeLists.txt')).toContain(
      'add_subdirectory(tests/gen) # suture: generated tests',
    );
  }, 600_000);
});
