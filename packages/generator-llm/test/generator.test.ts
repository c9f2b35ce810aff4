import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { snapshotTree } from '@suture/core/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  call,
  editsAnswer,
  startMockOpenAI,
  text,
  type MockOpenAI,
} from '../../llm-openai/test/mock-openai.js';
import llm from '../src/index.js';
import { cleanup, context, copyOf, createAnswer, SHOP, stockRequest } from './support.js';

// The generator asks the real @suture/llm-openai fixer, loaded by name as the gate loads it,
// which talks to a local server speaking Chat Completions through the real openai SDK.
let mock: MockOpenAI;
beforeAll(async () => {
  mock = await startMockOpenAI();
});
afterAll(async () => {
  await mock.close();
  await cleanup();
});
beforeEach(() => mock.reset());

const TESTS = [
  'import pytest',
  'from shop.stock import OutOfStock, reserve',
  '',
  '',
  'def test_reserve_takes_the_quantity():',
  '    stock = {"tea": 5}',
  '    assert reserve(stock, "tea", 2) == 3',
  '',
  '',
  'class TestRefusals:',
  '    def test_out_of_stock(self):',
  '        with pytest.raises(OutOfStock):',
  '            reserve({}, "tea", 1)',
  '',
].join('\n');

const generator = (root: string, over: Record<string, unknown> = {}): ReturnType<typeof llm> =>
  llm(
    {
      fixer: ['openai', { baseURL: mock.baseURL, model: 'gpt-4.1-mini', apiKey: 'sk-test-0123456789' }],
      ...over,
    },
    { configDir: root },
  );

/** The user message of the n-th completion request: the rendered prompt. */
const prompt = (n: number): string => {
  const body = mock.completions()[n]!.body as { messages: Array<{ role: string; content: string }> };
  return body.messages
    .filter((m) => m.role === 'user')
    .map((m) => m.content)
    .join('\n');
};

describe('the LLM generator over the openai fixer', () => {
  it("asks with the target's code, its callers' uses and the tests that use it, and answers the file, its tests and the usage; it writes nothing", async () => {
    const root = await copyOf(SHOP);
    const before = await snapshotTree(root, []);
    mock.script(
      call(createAnswer('tests/gen/test_gen_stock.py', TESTS), { tokens: { input: 2000, output: 300 } }),
    );
    const result = await generator(root).generate(stockRequest(root), context(root));

    expect(result.files).toEqual([{ file: 'tests/gen/test_gen_stock.py', content: TESTS }]);
    expect(result.plan.tests).toEqual([
      {
        file: 'tests/gen/test_gen_stock.py',
        test: 'tests/gen/test_gen_stock.py::test_reserve_takes_the_quantity',
        covers: 'shop/stock.py',
      },
      {
        file: 'tests/gen/test_gen_stock.py',
        test: 'tests/gen/test_gen_stock.py::TestRefusals::test_out_of_stock',
        covers: 'shop/stock.py',
      },
    ]);
    expect(result.usage).toMatchObject({
      calls: 1,
      inputTokens: 2000,
      outputTokens: 300,
      model: 'gpt-4.1-mini',
    });
    expect(await snapshotTree(root, [])).toEqual(before);

    const sent = prompt(0);
    expect(mock.completions()).toHaveLength(1);
    expect(sent).toContain('Write a new pytest file of unit tests');
    expect(sent).toContain('new test file: tests/gen/test_gen_stock.py');
    expect(sent).toContain("the target's module from the project root: shop.stock");
    // the target whole, the caller's lines that use it, and the test that uses the target first
    expect(sent).toContain(await readFile(join(root, 'shop/stock.py'), 'utf8').then((t) => t.trim()));
    expect(sent).toContain('            reserve(stock, item, qty)\n        except OutOfStock:');
    expect(sent).toContain('### tests/test_stock.py');
    expect(sent.indexOf('### tests/test_stock.py')).toBeLessThan(sent.indexOf('### tests/test_misc.py'));
    expect(sent).toContain(
      'sources below: shop/stock.py (the code under test), shop/orders.py (a caller of the target), tests/test_stock.py (an existing test of the project), tests/test_misc.py (an existing test of the project)',
    );
    expect(sent).not.toContain(root);
  });

  it('on a later generation, quotes the lines still uncovered and shows the removed file as written, with why, under a new name', async () => {
    const root = await copyOf(SHOP);
    const gen = generator(root, { examples: 1 });
    mock.script(call(createAnswer('tests/gen/test_gen_stock.py', TESTS)));
    await gen.generate(stockRequest(root), context(root));
    const second = TESTS.replace('test_reserve_takes', 'test_reserve_again');
    mock.script(call(createAnswer('tests/gen/test_gen_stock_2.py', second)));
    const result = await gen.generate(
      stockRequest(root, {
        feedback: {
          attempt: 2,
          uncovered: [{ file: 'shop/stock.py', lines: [7, 8, 17] }],
          removed: [
            { file: 'tests/gen/test_gen_stock.py', verdict: 'no-coverage', reason: 'covers nothing new' },
          ],
          kept: [],
        },
      }),
      context(root),
    );
    expect(result.files.map((f) => f.file)).toEqual(['tests/gen/test_gen_stock_2.py']);
    const sent = prompt(1);
    expect(sent).toContain('generation attempt: 2');
    expect(sent).toContain(
      'target lines no test runs yet (7-8, 17):\n 7:     if qty <= 0:\n 8:         raise ValueError("qty must be positive")\n17:     return stock.get(item, 0) < minimum',
    );
    expect(sent).toContain('- tests/gen/test_gen_stock.py: no-coverage: covers nothing new');
    expect(sent).toContain('tests/gen/test_gen_stock.py (written earlier and removed: no-coverage)');
    expect(sent).toContain('def test_reserve_takes_the_quantity():');
    expect(sent).not.toContain('### tests/test_misc.py');
  });

  it('asks only for the targets that still have uncovered lines on a later generation', async () => {
    const root = await copyOf(SHOP);
    const result = await generator(root).generate(
      stockRequest(root, {
        inputs: ['shop/stock.py', 'shop/orders.py'],
        feedback: { attempt: 2, uncovered: [{ file: 'shop/orders.py', lines: [] }], removed: [], kept: [] },
      }),
      context(root),
    );
    expect(result.files).toEqual([]);
    expect(mock.completions()).toHaveLength(0);
  });

  it('file::function: names the function and puts it in the file name', async () => {
    const root = await copyOf(SHOP);
    mock.script(call(createAnswer('tests/gen/test_gen_stock_reserve.py', TESTS)));
    const result = await generator(root).generate(
      stockRequest(root, { options: { symbols: ['reserve'] } }),
      context(root),
    );
    expect(result.files.map((f) => f.file)).toEqual(['tests/gen/test_gen_stock_reserve.py']);
    expect(result.plan.tests[0]!.covers).toBe('shop/stock.py (reserve)');
    expect(prompt(0)).toContain('target: shop/stock.py (reserve)');
  });

  it("a garbage answer is an error that says what the model did, and the model's schema failures are said too", async () => {
    const root = await copyOf(SHOP);
    mock.script(call(editsAnswer([{ file: 'shop/stock.py', search: 'qty <= 0', replace: 'qty < 0' }])));
    await expect(generator(root).generate(stockRequest(root), context(root))).rejects.toThrow(
      "@suture/generator-llm wrote no test file: shop/stock.py: the model's answer edits shop/stock.py (search/replace) instead of creating tests/gen/test_gen_stock.py with its whole content",
    );
    mock.script(text('Sure! Here are your tests: def test_x(): pass'));
    await expect(generator(root).generate(stockRequest(root), context(root))).rejects.toThrow(
      /@suture\/generator-llm wrote no test file: shop\/stock\.py: @suture\/llm-openai gave no usable answer: .*propose_fix/,
    );
    mock.script(
      call(createAnswer('tests/gen/test_gen_stock.py', 'from shop.stock import reserve\n\nprint(reserve)\n')),
    );
    await expect(generator(root).generate(stockRequest(root), context(root))).rejects.toThrow(
      'shop/stock.py: the file the model wrote declares no pytest test',
    );
  });

  it('a model that declines writes nothing and is no error', async () => {
    const root = await copyOf(SHOP);
    mock.script(
      call({
        verdict: 'unfixable',
        rationale: 'nothing to test',
        edits: [],
        bug: null,
        diagnosis: 'only constants',
      }),
    );
    const result = await generator(root).generate(stockRequest(root), context(root));
    expect(result.files).toEqual([]);
    expect(result.usage).toMatchObject({ calls: 1 });
  });

  it('refuses the hints fixer, which writes no tests, and bad options, naming them', async () => {
    const root = await copyOf(SHOP);
    await expect(
      llm({ fixer: 'hints' }, { configDir: root }).generate(stockRequest(root), context(root)),
    ).rejects.toThrow('the fixer "hints" applies compiler fix-its and writes no tests; name an LLM fixer');
    expect(() => llm({ fixer: 'openai', examples: 9 } as never)).toThrow(/examples/);
    await expect(
      generator(root).generate(
        stockRequest(root, { project: { name: 'web', root, language: 'rust' } }),
        context(root),
      ),
    ).rejects.toThrow(
      'writes pytest, GoogleTest and Jest tests (languages python, cpp, c, javascript, typescript); project web is rust',
    );
  });
});
