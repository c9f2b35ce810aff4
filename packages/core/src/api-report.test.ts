import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { apiReport, ENTRY_POINTS } from '../scripts/api-report.mjs';

describe('the public API of @suture/core', () => {
  it('is exactly what api-report.md lists (run `node packages/core/scripts/api-report.mjs` after a deliberate change)', () => {
    const committed = readFileSync(new URL('../api-report.md', import.meta.url), 'utf8');
    expect(apiReport()).toBe(committed);
  });

  it('lists every entry point of package.json, and the root exports no engine internals', () => {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
      exports: Record<string, unknown>;
    };
    const code = Object.keys(pkg.exports).filter((k) => !k.endsWith('.json'));
    expect(code.map((k) => (k === '.' ? '@suture/core' : `@suture/core/${k.slice(2)}`)).sort()).toEqual(
      Object.keys(ENTRY_POINTS as Record<string, string>).sort(),
    );
    const root = (apiReport() as string).split('## ')[1]!;
    for (const internal of ['Journal', 'atomicWrite', 'acquireLock', 'wrapRunner', 'importPlugin', 'runGate'])
      expect(root).not.toMatch(new RegExp(`\\b${internal}\\b`));
  });
});
