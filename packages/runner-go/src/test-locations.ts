import { readdir, readFile } from 'node:fs/promises';
import { join, posix } from 'node:path';
import type { TestResult } from '@suture/core';
import { createGoCache, summarizeGo, type GoFunc } from './go-source.js';
import { parseId } from './ids.js';

/** A subtest's name as `go test` reports it: spaces made underscores (testing's `rewrite`). */
export const rewriteName = (name: string): string => name.replace(/\s/g, '_');

/**
 * Sets each test's file and 1-based line from the package's `_test.go` files: a test at its
 * `func`, a subtest at the string that names it inside its test (a `t.Run` title or a table row's
 * name), or at its test when no string names it.
 */
export async function locateTests(root: string, tests: readonly TestResult[]): Promise<void> {
  const cache = createGoCache(8);
  const byDir = new Map<string, Promise<Map<string, { file: string; fn: GoFunc }>>>();
  const functions = (dir: string): Promise<Map<string, { file: string; fn: GoFunc }>> => {
    let found = byDir.get(dir);
    if (!found) {
      found = (async () => {
        const out = new Map<string, { file: string; fn: GoFunc }>();
        const names = await readdir(join(root, dir)).catch(() => [] as string[]);
        for (const name of names.filter((n) => n.endsWith('_test.go')).sort()) {
          const source = await readFile(join(root, dir, name), 'utf8').catch(() => undefined);
          if (source === undefined) continue;
          const file = dir === '.' ? name : posix.join(dir, name);
          for (const fn of summarizeGo(cache.parseText(source).tree).funcs)
            if (!fn.receiver && /^(?:Test|Example|Fuzz)/.test(fn.name)) out.set(fn.name, { file, fn });
        }
        return out;
      })();
      byDir.set(dir, found);
    }
    return found;
  };
  for (const t of tests) {
    const id = parseId(t.id);
    if (!id || t.file) continue;
    const hit = (await functions(id.dir)).get(id.path[0]!);
    if (!hit) continue;
    t.file = hit.file;
    t.line = hit.fn.line;
    if (id.path.length > 1) {
      const last = id.path.at(-1)!.replace(/#\d+$/, '');
      const named = hit.fn.strings.find((s) => rewriteName(s.value) === last);
      if (named) t.line = named.line;
    }
  }
}
