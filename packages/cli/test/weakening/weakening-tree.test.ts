import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { A, LEGITIMATE, PY, WEAKENINGS } from './tree-corpus.mjs';
import { checkTestWeakening } from './readers.js';

type Case = [name: string, file: string, before: string, after: string];

describe('the weakening guard on syntax trees', () => {
  it.each(WEAKENINGS)('refuses: %s (%s)', (_name, file, before, after) => {
    const verdict = checkTestWeakening(file, before, after, { protectedNames: ['calc'] });
    expect(verdict.readBy).toBe('tree');
    expect(verdict.weakening).toMatch(/^test-weakening edit to /);
  });

  it.each(LEGITIMATE)('accepts: %s (%s)', (_name, file, before, after) => {
    const verdict = checkTestWeakening(file, before, after, { protectedNames: ['calc'] });
    expect(verdict).toMatchObject({ readBy: 'tree' });
    expect(verdict.weakening).toBeUndefined();
  });

  it('says why, in the words of the construct', () => {
    const why = (c: Case): string => checkTestWeakening(c[1], c[2], c[3]).weakening ?? '';
    expect(why(WEAKENINGS[5]!)).toContain('a `return` in its `finally:` discards its failure');
    expect(why(WEAKENINGS[15]!)).toContain('adds a skip, xfail, todo or DISABLED_ marker to calc > adds');
    expect(why(WEAKENINGS[19]!)).toContain('it sits in the #else of an #if 1 block');
    expect(why(WEAKENINGS[24]!)).toContain('main never runs test_add');
    expect(why(WEAKENINGS[26]!)).toContain('it comes after `return 0;` and never runs');
    expect(why(WEAKENINGS[8]!)).toContain('imports add from tests.fakes:add instead of calc.core:add');
  });

  it('falls back to text rules for a file that does not parse, reading both versions alike', () => {
    const broken = `${PY}\ndef test_broken(:\n    pass\n`;
    const verdict = checkTestWeakening('tests/test_calc.py', broken, broken.replace(A, '    assert True\n'));
    expect(verdict.readBy).toBe('text');
    expect(verdict.weakening).toMatch(/constant|removes 1 assertion/);
  });

  it('loads tree-sitter only when a test file is checked, not with the engine or the analyzer', () => {
    // the built engine and runner in a fresh process: what a green run (which checks no proposal) loads
    const internal = fileURLToPath(new URL('../../../core/dist/internal.js', import.meta.url));
    const runner = fileURLToPath(new URL('../../../runner-pytest/dist/index.js', import.meta.url));
    const script = `
      import { createRequire } from 'node:module';
      const cache = createRequire(import.meta.url).cache;
      const native = () => Object.keys(cache).filter((k) => /node_modules[\\/]tree-sitter/.test(k)).length;
      const { checkTestWeakening } = await import(${JSON.stringify(internal)});
      const { default: pytest } = await import(${JSON.stringify(runner)});
      const analyzer = pytest().analyzer();
      const before = native();
      const verdict = checkTestWeakening('t.py', 'def test_a():\\n    assert f() == 1\\n', 'def test_a():\\n    assert True\\n', { analyzer });
      console.log(JSON.stringify({ before, after: native(), readBy: verdict.readBy }));
    `;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(JSON.parse(out)).toEqual({ before: 0, after: expect.any(Number), readBy: 'tree' });
    expect(JSON.parse(out).after).toBeGreaterThan(0);
  });
});
