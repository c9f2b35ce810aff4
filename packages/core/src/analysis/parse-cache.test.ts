import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enclosing, nodeAtLine, ParseCache, type Grammar } from './parse-cache.js';

// Core ships only the runtime; the grammar comes from the repository's runner packages.
const python = createRequire(import.meta.url)('tree-sitter-python') as Grammar;

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'suture-parse-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('ParseCache', () => {
  it('parses a file once per content, and again after it changes', async () => {
    const cache = new ParseCache(python);
    const file = join(dir, 'a.py');
    await writeFile(file, 'def f(x):\n    return g(x)\n');
    const first = await cache.parseFile(file);
    const again = await cache.parseFile(file);
    expect(again).toBe(first);
    await writeFile(file, 'def f(x):\n    return h(x)\n');
    const changed = await cache.parseFile(file);
    expect(changed).not.toBe(first);
    expect(cache.size).toBe(2);
  });

  it('loads a grammar given as a loader at the first parse, once', () => {
    let loads = 0;
    const cache = new ParseCache(() => {
      loads++;
      return python;
    });
    expect(loads).toBe(0);
    expect(cache.parseText('x = 1\n').tree.rootNode.type).toBe('module');
    expect(cache.parseText('y = 2\n').tree.rootNode.hasError).toBe(false);
    expect(loads).toBe(1);
  });

  it('returns undefined for a file that cannot be read', async () => {
    expect(await new ParseCache(python).parseFile(join(dir, 'missing.py'))).toBeUndefined();
  });

  it('parses files larger than the default tree-sitter buffer', () => {
    const big = Array.from({ length: 4000 }, (_, i) => `def f${i}(x):\n    return x + ${i}\n`).join('');
    const { tree } = new ParseCache(python).parseText(big);
    expect(tree.rootNode.hasError).toBe(false);
    expect(tree.rootNode.namedChildCount).toBe(4000);
  });

  it('finds the function enclosing a 1-based line', () => {
    const { tree } = new ParseCache(python).parseText(
      'x = 1\n\nclass C:\n    def m(self):\n        return 42\n',
    );
    const fn = enclosing(nodeAtLine(tree, 5, 16), new Set(['function_definition']));
    expect(fn?.childForFieldName('name')?.text).toBe('m');
    expect(enclosing(nodeAtLine(tree, 1), new Set(['function_definition']))).toBeNull();
  });
});
