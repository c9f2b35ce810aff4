import { existsSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  call,
  editsAnswer,
  startMockOpenAI,
  type MockOpenAI,
} from '../../../../llm-openai/test/mock-openai.js';
import { cleanup } from '../cli-support.js';
import { createAnswer, generate, llmProject, read, reportOf, verdicts } from './llm-support.js';
import { requirePythonModule, tree } from './support.js';

// `suture generate tests --generator openai`: the LLM generator asks the config's OpenAI fixer,
// which talks through the real openai SDK to a local server speaking Chat Completions; the
// files it answers are run by the real pytest and Jest, measured by coverage.py and Istanbul,
// and kept or removed by the filter.
const KEY = 'sk-test-generate-0123456789';
let mock: MockOpenAI;
beforeAll(async () => {
  mock = await startMockOpenAI();
});
afterAll(async () => {
  await mock.close();
  await cleanup();
});
beforeEach(() => mock.reset());

const config = (runner: string): Record<string, unknown> => ({
  projects: [{ name: 'shop', root: '.', runner }],
  fixers: [['openai', { model: 'gpt-4.1-mini', baseURL: mock.baseURL }]],
  reporters: [],
});

/** The rendered prompt of the n-th request the model got. */
function prompt(n: number): string {
  const body = mock.completions()[n]?.body as
    { messages: Array<{ role: string; content: string }> } | undefined;
  if (!body) throw new Error(`the model got ${mock.completions().length} requests, not ${n + 1}`);
  return body.messages
    .filter((m) => m.role === 'user')
    .map((m) => m.content)
    .join('\n');
}

const PY_KEPT = [
  'import pytest',
  'from shop.stock import OutOfStock, reserve',
  '',
  '',
  'def test_reserve_takes_the_quantity():',
  '    stock = {"tea": 5}',
  '    assert reserve(stock, "tea", 2) == 3',
  '    assert stock == {"tea": 3}',
  '',
  '',
  'def test_reserve_refuses_more_than_the_stock():',
  '    with pytest.raises(OutOfStock):',
  '        reserve({"tea": 1}, "tea", 2)',
  '',
].join('\n');

// a wrong expectation: the code raises ValueError
const PY_FAILS = [
  'from shop.stock import reserve',
  '',
  '',
  'def test_reserve_of_nothing():',
  '    assert reserve({"tea": 1}, "tea", 0) == 1',
  '',
].join('\n');

describe('suture generate tests --generator openai', () => {
  it('pytest: asks with the code, callers and an existing test, keeps the file that adds coverage, asks again with the uncovered lines and removes the file that fails', async (t) => {
    requirePythonModule(t, 'coverage', 'python3 -m pip install coverage');
    const root = await llmProject('llm-python', config('pytest'));
    mock.script(
      call(createAnswer('tests/gen/test_gen_stock.py', PY_KEPT), { tokens: { input: 2400, output: 350 } }),
      call(createAnswer('tests/gen/test_gen_stock_2.py', PY_FAILS), { tokens: { input: 2600, output: 120 } }),
    );
    const r = await generate(
      [
        'generate',
        'tests',
        'shop/stock.py',
        '--generator',
        'openai',
        '--max-fix-attempts',
        '0',
        '--flake-runs',
        '2',
        '--json',
      ],
      root,
      { OPENAI_API_KEY: KEY },
    );
    const report = reportOf(r);
    expect(r.code, r.stderr).toBe(0);

    // what the model was shown: the target, the caller's use of it, the project's own test
    const first = prompt(0);
    expect(first).toContain('Write a new pytest file of unit tests');
    expect(first).toContain((await read(root, 'shop/stock.py')).trim());
    expect(first).toContain('### shop/orders.py');
    expect(first).toContain('            reserve(stock, item, qty)');
    expect(first).toContain('### tests/test_stock.py');
    expect(first).toContain('def test_needs_reorder_below_minimum():');
    expect(first).toContain('new test file: tests/gen/test_gen_stock.py');
    expect(first).not.toContain(KEY);
    // the second generation: the lines still uncovered, quoted, and what is kept
    const second = prompt(1);
    expect(second).toContain('generation attempt: 2');
    expect(second).toContain(
      'target lines no test runs yet (8):\n8:         raise ValueError("qty must be positive")',
    );
    expect(second).toContain('tests kept so far (they run already): tests/gen/test_gen_stock.py');
    expect(mock.completions().map((c) => c.headers.authorization)).toEqual([
      `Bearer ${KEY}`,
      `Bearer ${KEY}`,
    ]);

    expect(verdicts(report)).toEqual({
      'tests/gen/test_gen_stock.py': 'kept',
      'tests/gen/test_gen_stock_2.py': 'fails',
    });
    const kept = report.tests.find((x) => x.file === 'tests/gen/test_gen_stock.py')!;
    expect(kept.tests.sort()).toEqual([
      'tests/gen/test_gen_stock.py::test_reserve_refuses_more_than_the_stock',
      'tests/gen/test_gen_stock.py::test_reserve_takes_the_quantity',
    ]);
    expect(report.coverage.after.lines.covered).toBeGreaterThan(report.coverage.before.lines.covered);
    expect(report.generations.map((g) => [g.attempt, g.source, g.files])).toEqual([
      [1, '@suture/generator-llm', ['tests/gen/test_gen_stock.py']],
      [2, '@suture/generator-llm', ['tests/gen/test_gen_stock_2.py']],
    ]);
    expect(report.generations[1]!.uncoveredGiven).toEqual([{ file: 'shop/stock.py', lines: [8] }]);
    expect(report.totals).toMatchObject({ generated: 2, kept: 1, llmCalls: 2 });
    expect(report.generations[0]!.usage).toMatchObject({ inputTokens: 2400, outputTokens: 350, calls: 1 });
    // on disk: the kept file as the model wrote it, the failing one gone
    expect(await read(root, 'tests/gen/test_gen_stock.py')).toBe(PY_KEPT);
    expect(existsSync(`${root}/tests/gen/test_gen_stock_2.py`)).toBe(false);
  }, 600_000);

  it('a garbage answer on the second generation fails the run with what the model did, and takes back the file kept before it', async (t) => {
    requirePythonModule(t, 'coverage', 'python3 -m pip install coverage');
    const root = await llmProject('llm-python', config('pytest'));
    const before = await tree(root);
    mock.script(
      call(createAnswer('tests/gen/test_gen_stock.py', PY_KEPT)),
      call(editsAnswer([{ file: 'shop/stock.py', search: 'qty <= 0', replace: 'qty < 0' }])),
    );
    const r = await generate(
      ['generate', 'tests', 'shop/stock.py', '--generator', 'openai', '--flake-runs', '1', '--json'],
      root,
      { OPENAI_API_KEY: KEY },
    );
    const report = reportOf(r);
    expect(r.code, r.stderr).toBe(3);
    expect(report.error).toBe(
      "@suture/generator-llm (suture.config.json#--generator): wrote no test file: shop/stock.py: the model's answer edits shop/stock.py (search/replace) instead of creating tests/gen/test_gen_stock_2.py with its whole content",
    );
    expect(r.stderr).toContain(
      'the auto-run failed: @suture/generator-llm (suture.config.json#--generator): wrote no test file',
    );
    expect(verdicts(report)).toEqual({ 'tests/gen/test_gen_stock.py': 'rolled-back' });
    expect(await tree(root)).toEqual(before);
    expect(existsSync(`${root}/tests/gen`)).toBe(false);
  }, 600_000);

  it('Jest: the file reaches the target from the generated folder and is kept for the branches it adds', async () => {
    const root = await llmProject('llm-jest', config('jest'));
    const content = [
      "const { OutOfStock, reserve } = require('../../src/stock');",
      '',
      "describe('reserve', () => {",
      "  test('takes the quantity', () => {",
      '    const stock = { tea: 5 };',
      "    expect(reserve(stock, 'tea', 2)).toBe(3);",
      '  });',
      "  test('refuses more than the stock and nothing at all', () => {",
      "    expect(() => reserve({ tea: 1 }, 'tea', 2)).toThrow(OutOfStock);",
      "    expect(() => reserve({ tea: 1 }, 'tea', 0)).toThrow(RangeError);",
      '  });',
      '});',
      '',
    ].join('\n');
    mock.script(call(createAnswer('__tests__/gen/stock.gen.test.js', content)));
    const r = await generate(
      [
        'generate',
        'tests',
        'src/stock.js',
        '--generator',
        'openai',
        '--generations',
        '1',
        '--flake-runs',
        '2',
        '--json',
      ],
      root,
      { OPENAI_API_KEY: KEY },
    );
    const report = reportOf(r);
    expect(r.code, r.stderr).toBe(0);
    const sent = prompt(0);
    expect(sent).toContain('Write a new Jest file of unit tests');
    expect(sent).toContain("require('../../src/stock')");
    expect(sent).toContain('### src/orders.js');
    expect(sent).toContain('### __tests__/stock.test.js');
    expect(verdicts(report)).toEqual({ '__tests__/gen/stock.gen.test.js': 'kept' });
    expect(report.tests[0]!.tests.sort()).toEqual([
      '__tests__/gen/stock.gen.test.js::reserve refuses more than the stock and nothing at all',
      '__tests__/gen/stock.gen.test.js::reserve takes the quantity',
    ]);
    expect(report.coverage.after.branches.covered).toBeGreaterThan(report.coverage.before.branches.covered);
    expect(await read(root, '__tests__/gen/stock.gen.test.js')).toBe(content);
  }, 600_000);
  it("--generator llm asks the config's first LLM fixer with its options, passing over hints; hints or no LLM fixer is a usage error", async () => {
    const root = await llmProject('llm-python', {
      ...config('pytest'),
      fixers: ['hints', ['openai', { model: 'gpt-4.1-mini', baseURL: mock.baseURL }]],
    });
    mock.script(call(createAnswer('tests/gen/test_gen_stock.py', PY_KEPT)));
    const r = await generate(
      ['generate', 'tests', 'shop/stock.py', '--generator', 'llm', '--no-auto-run'],
      root,
      {
        OPENAI_API_KEY: KEY,
      },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('wrote tests/gen/test_gen_stock.py (not run: --no-auto-run)');
    expect(await read(root, 'tests/gen/test_gen_stock.py')).toBe(PY_KEPT);
    expect((mock.completions()[0]!.body as { model: string }).model).toBe('gpt-4.1-mini');
    expect(prompt(0)).toContain('### tests/test_stock.py');

    const hints = await generate(['generate', 'tests', 'shop/stock.py', '--generator', 'hints'], root);
    expect(hints.code).toBe(2);
    expect(hints.stderr).toContain(
      '--generator hints: the hints fixer applies compiler fix-its and writes no tests',
    );
    const none = await llmProject('llm-python', { ...config('pytest'), fixers: ['hints'] });
    const r2 = await generate(['generate', 'tests', 'shop/stock.py', '--generator', 'llm'], none);
    expect(r2.code).toBe(2);
    expect(r2.stderr).toContain('--generator llm asks an LLM fixer for the tests, and the config lists none');
    expect(mock.completions()).toHaveLength(1);
  }, 600_000);
});
