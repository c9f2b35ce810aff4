import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseCompilerOutput } from './gcc-diagnostics.js';

// Real compiler output, captured by test/fixtures/diagnostics/capture.sh (GCC 12.2 and Clang 14).
const fixture = (name: string): string =>
  readFileSync(new URL(`../test/fixtures/diagnostics/${name}`, import.meta.url), 'utf8');
const ROOT = '/repo';

describe('parseCompilerOutput on GCC', () => {
  const diags = parseCompilerOutput(fixture('gcc.txt'), ROOT);
  const at = (file: string, line: number) => diags.find((d) => d.file === file && d.line === line)!;

  it('keeps errors only, each with file, line, column, message and the enclosing function', () => {
    expect(diags.every((d) => d.severity === 'error')).toBe(true);
    expect(at('fix.cpp', 4)).toMatchObject({
      source: 'gcc',
      column: 8,
      message: "'vector' is not a member of 'std'",
      symbol: 'vector',
    });
    expect(diags.find((d) => d.message.includes('no return statement'))).toBeUndefined();
    expect(at('ns.cpp', 3)).toMatchObject({
      message: "'string' in namespace 'std' does not name a type",
      symbol: 'string',
    });
  });

  it('attaches the note and its missing-include fix-it to the error it explains', () => {
    expect(at('fix.cpp', 4).notes).toEqual([
      {
        message: "'std::vector' is defined in header '<vector>'; did you forget to '#include <vector>'?",
        file: 'fix.cpp',
        line: 2,
        column: 1,
      },
    ]);
    expect(at('fix.cpp', 4).fixIts).toEqual([
      { file: 'fix.cpp', line: 2, column: 1, endLine: 2, endColumn: 1, replacement: '#include <vector>\n' },
    ]);
  });

  it('reads spelling and missing-semicolon fix-its (1-based, end exclusive)', () => {
    const typo = diags.find((d) => d.symbol === 'countr')!;
    expect(typo.fixIts).toEqual([
      { file: 'fix.cpp', line: 6, column: 10, endLine: 6, endColumn: 16, replacement: 'counter' },
    ]);
    expect(at('mem.cpp', 2)).toMatchObject({
      symbol: 'valeu',
      fixIts: [{ line: 2, column: 27, endColumn: 32, replacement: 'value' }],
    });
    expect(at('semi.cpp', 3).fixIts).toEqual([
      { file: 'semi.cpp', line: 3, column: 9, endLine: 3, endColumn: 9, replacement: ';' },
    ]);
  });

  it('reports an undefined reference with the symbol and the function that needed it', () => {
    expect(diags.find((d) => d.source === 'ld')).toMatchObject({
      code: 'undefined-reference',
      symbol: 'missing_fn(int)',
      file: 'link.cpp',
      message: "undefined reference to 'missing_fn(int)' (needed by main in /tmp/obj.o)",
    });
  });
});

describe('parseCompilerOutput on Clang', () => {
  const diags = parseCompilerOutput(fixture('clang.txt'), ROOT);
  const bySymbol = (s: string) => diags.filter((d) => d.symbol === s);

  it('labels the diagnostics clang and finds the name each error is about in its wording', () => {
    expect(new Set(diags.filter((d) => d.source !== 'ld').map((d) => d.source))).toEqual(new Set(['clang']));
    expect(bySymbol('vector')[0]).toMatchObject({
      file: 'fix.cpp',
      line: 4,
      column: 8,
      message: "no member named 'vector' in namespace 'std'",
    });
    expect(bySymbol('string').map((d) => [d.file, d.message])).toEqual([
      ['inc.cpp', "no type named 'string' in namespace 'std'"],
      ['ns.cpp', "no type named 'string' in namespace 'std'"],
    ]);
    expect(bySymbol('valeu').map((d) => d.file)).toEqual(['mem.cpp', 'mem2.cpp']);
  });

  it('reads its fix-its and attaches the "declared here" note', () => {
    const typo = diags.find((d) => d.file === 'typo.cpp')!;
    expect(typo).toMatchObject({
      symbol: 'countr',
      message: "use of undeclared identifier 'countr'; did you mean 'counter'?",
    });
    expect(typo.fixIts).toEqual([
      { file: 'typo.cpp', line: 3, column: 10, endLine: 3, endColumn: 16, replacement: 'counter' },
    ]);
    expect(typo.notes).toEqual([
      { message: "'counter' declared here", file: 'typo.cpp', line: 2, column: 7 },
    ]);
    expect(diags.find((d) => d.file === 'semi.cpp')).toMatchObject({
      message: "expected ';' after expression",
      fixIts: [{ line: 3, column: 9, replacement: ';' }],
    });
  });

  it('reports the undefined reference, not the driver line', () => {
    expect(diags.filter((d) => d.source === 'ld')).toEqual([
      expect.objectContaining({ symbol: 'missing_fn(int)', code: 'undefined-reference' }),
    ]);
    expect(diags.some((d) => d.message.includes('linker command failed'))).toBe(false);
  });
});
