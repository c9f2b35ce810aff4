import { describe, expect, it } from 'vitest';
import { ScriptCache } from './js-model.js';
import { summarizeScript } from './js-summary.js';

const summarize = (file: string, source: string) =>
  summarizeScript(new ScriptCache(1).forFile(file).parseText(source).tree);

describe('summarizeScript', () => {
  it('reads CommonJS modules that export what other modules export: spreads, Object.assign, a whole require', () => {
    const spread = summarize(
      'src/index.js',
      [
        "const more = require('./more-ops');",
        'const local = { x: 1 };',
        "module.exports = { ...require('./ops'), ...more, ...local, version: '1' };",
      ].join('\n'),
    );
    // a spread of a plain local object exports nothing another module defines
    expect(spread.stars).toEqual(['./ops', './more-ops']);
    const assigned = summarize(
      'src/legacy.js',
      [
        "const extra = require('./extra');",
        'function neg(x) { return -x; }',
        "module.exports = Object.assign({}, require('./ops'), extra, { neg });",
      ].join('\n'),
    );
    expect(assigned.stars).toEqual(['./ops', './extra']);
    expect(Object.fromEntries(assigned.exports)).toEqual({ neg: { local: 'neg' } });
    expect(summarize('src/all.js', "module.exports = require('./index');").stars).toEqual(['./index']);
    // a call that is not require() is no re-export
    expect(summarize('src/made.js', "module.exports = make('./ops');").stars).toEqual([]);
  });

  it('reads ES exports: declarations, default, renamed, re-exported and star re-exports', () => {
    const m = summarize(
      'src/index.ts',
      [
        "export * from './shapes';",
        "export * as units from './units';",
        "export { scale as scaleBy, rotate } from './transform';",
        'export function area(w: number, h: number) { return w * h; }',
        'export const double = (x: number) => x * 2;',
        'const hidden = 1;',
        'export { hidden as visible };',
        'export default class Ruler { measure() { return area(1, 2); } }',
      ].join('\n'),
    );
    expect(m.stars).toEqual(['./shapes']);
    expect(Object.fromEntries(m.exports)).toEqual({
      units: { source: './units', name: '*' },
      scaleBy: { source: './transform', name: 'scale' },
      rotate: { source: './transform', name: 'rotate' },
      area: { local: 'area' },
      double: { local: 'double' },
      visible: { local: 'hidden' },
      default: { local: 'Ruler' },
    });
    expect(m.defs.map((d) => d.name)).toEqual(['area', 'double', 'Ruler', 'Ruler.measure']);
    expect(m.defs.find((d) => d.name === 'Ruler.measure')!.uses.map((u) => u.name)).toContain('area');
  });

  it('reads CommonJS exports and requires', () => {
    const m = summarize(
      'src/legacy.js',
      [
        "const { parse, format: fmt } = require('./text');",
        "const money = require('./money');",
        'function clamp(v, lo, hi) { return Math.min(hi, Math.max(lo, parse(v))); }',
        'exports.toCm = function (inches) { return inches * 2.54; };',
        'module.exports.half = (x) => x / 2;',
        'module.exports = { clamp, limit: clamp, twice(x) { return money.add(x, x); } };',
      ].join('\n'),
    );
    expect(Object.fromEntries(m.imports)).toEqual({
      parse: { source: './text', name: 'parse' },
      fmt: { source: './text', name: 'format' },
      money: { source: './money', name: '*' },
    });
    expect(Object.fromEntries(m.exports)).toEqual({
      toCm: { local: 'toCm' },
      half: { local: 'half' },
      clamp: { local: 'clamp' },
      limit: { local: 'clamp' },
      twice: { local: 'twice' },
    });
    expect(m.defs.find((d) => d.name === 'twice')!.uses).toContainEqual({
      name: 'add',
      object: 'money',
      lines: [6],
    });
  });

  it('reads test callbacks with their titles and the path of their suites', () => {
    const m = summarize(
      'tests/cart.test.js',
      "describe('Cart', () => {\n  test.each([[1, 2]])('adds %i + %i', (a, b) => {\n    expect(total(a, b)).toBe(3);\n  });\n});\n",
    );
    expect(m.tests).toEqual([
      {
        title: 'adds %i + %i',
        path: 'Cart > adds %i + %i',
        line: 2,
        endLine: 4,
        uses: expect.arrayContaining([{ name: 'total', lines: [3] }]),
      },
    ]);
  });
  it('reads the hooks of each suite and the functions a definition defines inside it', () => {
    const m = summarize(
      'src/bloom.test.js',
      [
        'class Bloom {',
        '  createStore(size) {',
        '    const cells = [];',
        '    function fill() { cells.push(false); }',
        '    return {',
        '      getValue(i) { return cells[i]; },',
        '      setValue: (i) => { cells[i] = true; },',
        '    };',
        '  }',
        '}',
        'beforeAll(() => { setup(); });',
        "describe('Bloom', () => {",
        '  let bloom;',
        '  beforeEach(() => {',
        '    bloom = new Bloom();',
        '  });',
        "  it('inserts', () => { bloom.insert('a'); });",
        '});',
      ].join('\n'),
    );
    expect(m.defs.find((d) => d.name === 'Bloom.createStore')!.inner).toEqual([
      'fill',
      'getValue',
      'setValue',
    ]);
    expect(m.defs.find((d) => d.name === 'Bloom')!.inner).toBeUndefined();
    expect(m.hooks).toEqual([
      { suite: '', line: 11, endLine: 11, uses: expect.arrayContaining([{ name: 'setup', lines: [11] }]) },
      {
        suite: 'Bloom',
        line: 14,
        endLine: 16,
        uses: expect.arrayContaining([{ name: 'Bloom', lines: [15] }]),
      },
    ]);
    expect(m.tests.map((t) => t.path)).toEqual(['Bloom > inserts']);
  });
});
