import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { briefFor } from '../src/brief.js';
import { BOUNDS } from '../src/context.js';
import { LlmGeneratorOptionsSchema } from '../src/options.js';
import { fixRequestFor } from '../src/request.js';
import { cleanup, copyOf, SHOP, stockRequest } from './support.js';

afterAll(cleanup);

async function write(root: string, file: string, text: string): Promise<void> {
  await mkdir(join(root, file, '..'), { recursive: true });
  await writeFile(join(root, file), text);
}

const filler = (n: number, name: string): string =>
  Array.from({ length: n }, (_, i) => `def ${name}_${i}():\n    assert ${i} == ${i}\n`).join('\n');

describe('what one request carries, within its bounds', () => {
  it('a large target is sent from the function asked for, and callers and examples are cut to their share', async () => {
    const root = await copyOf(SHOP);
    const big = [
      ...Array.from({ length: 600 }, (_, i) => `def helper_${i}(x):\n    return x + ${i}\n\n`),
      'def reserve(stock, item, qty):\n    return stock\n',
      ...Array.from({ length: 600 }, (_, i) => `def tail_${i}(x):\n    return x - ${i}\n\n`),
    ].join('');
    await write(root, 'shop/stock.py', big);
    // a caller that uses the target on every line, and many callers
    const uses = Array.from({ length: 400 }, (_, i) => `    reserve(stock, "item${i}", ${i})`).join('\n');
    const callers: string[] = [];
    for (let i = 0; i < 8; i++) {
      await write(root, `shop/caller_${i}.py`, `from shop.stock import reserve\n\ndef go(stock):\n${uses}\n`);
      callers.push(`shop/caller_${i}.py`);
    }
    const tests: string[] = [];
    for (let i = 0; i < 6; i++) {
      await write(
        root,
        `tests/test_more_${i}.py`,
        `from shop.stock import reserve\n\n${filler(400, `test_${i}`)}`,
      );
      tests.push(`tests/test_more_${i}.py`);
    }
    const brief = await briefFor({
      request: stockRequest(root, { callers, existingTests: tests, options: { symbols: ['reserve'] } }),
      family: 'python',
      options: LlmGeneratorOptionsSchema.parse({ fixer: 'openai' }),
      target: 'shop/stock.py',
      taken: new Set(),
      earlier: new Map(),
    });
    const sources = brief!.sources;
    const target = sources.filter((s) => s.file === 'shop/stock.py');
    expect(target).toHaveLength(1);
    expect(target[0]!.text.length).toBeLessThanOrEqual(BOUNDS.target);
    expect(target[0]!.text).toMatch(/^def helper_599\(x\):[\s\S]*\ndef reserve\(stock, item, qty\):/);
    const callerFiles = [
      ...new Set(sources.filter((s) => s.file.startsWith('shop/caller_')).map((s) => s.file)),
    ];
    expect(callerFiles).toEqual(['shop/caller_0.py', 'shop/caller_1.py', 'shop/caller_2.py']);
    for (const file of callerFiles) {
      const chars = sources.filter((s) => s.file === file).reduce((n, s) => n + s.text.length, 0);
      expect(chars).toBeLessThanOrEqual(BOUNDS.caller);
    }
    const examples = sources.filter((s) => s.file.startsWith('tests/'));
    expect(examples.map((s) => s.file)).toEqual(['tests/test_more_0.py', 'tests/test_more_1.py']);
    for (const e of examples) expect(e.text.length).toBeLessThanOrEqual(BOUNDS.example);
    const request = fixRequestFor(brief!);
    const total = request.sources.reduce((n, s) => n + s.text.length, 0) + request.failure.evidence.length;
    expect(total).toBeLessThan(BOUNDS.target + 3 * BOUNDS.caller + 2 * BOUNDS.example + 2_000);
    expect(request.tokenBudget).toBeGreaterThan(total / 4);
  });
});
