import { describe, expect, it } from 'vitest';
import { includeInsertLine } from './includes.js';

describe('includeInsertLine', () => {
  it('puts a standard header in order among sorted standard includes, else after the last one', () => {
    expect(includeInsertLine('#include <cstdio>\n#include <vector>\n\nint x;\n', '<cmath>')).toBe(0);
    expect(includeInsertLine('#include <cstdio>\n#include <vector>\n\nint x;\n', '<map>')).toBe(1);
    expect(includeInsertLine('#include <vector>\n#include <cstdio>\n\nint x;\n', '<map>')).toBe(2);
  });

  it('goes after the project includes when there is no standard one, and at the top when there is none', () => {
    expect(includeInsertLine('// calc\n#include "calc.h"\n\nint x;\n', '<cmath>')).toBe(2);
    expect(includeInsertLine('int main() {}\n', '<cmath>')).toBe(0);
  });

  it('stays inside an include guard or after #pragma once', () => {
    expect(includeInsertLine('#ifndef A_H\n#define A_H\n\nint f();\n\n#endif\n', '<cstdint>')).toBe(2);
    expect(includeInsertLine('#pragma once\n\nint f();\n', '<cstdint>')).toBe(1);
  });

  it('ignores includes inside #if blocks, and an #ifndef/#define pair that closes before the code', () => {
    expect(
      includeInsertLine('#include <cstdio>\n#ifdef WIN\n#include <windows.h>\n#endif\nint x;\n', '<vector>'),
    ).toBe(1);
    expect(
      includeInsertLine('#ifndef NDEBUG\n#define NDEBUG\n#endif\n#include <cstdio>\nint x;\n', '<vector>'),
    ).toBe(4);
  });

  it('skips comments in the leading block and stops at the first declaration', () => {
    expect(
      includeInsertLine(
        '/* license\n * text\n */\n#include <cstdio>  // printf\nint x;\n#include <vector>\n',
        '<map>',
      ),
    ).toBe(4);
  });

  it('declines when the header is already included unconditionally', () => {
    expect(includeInsertLine('#include <cmath>\nint x;\n', '<cmath>')).toBeUndefined();
  });
});
