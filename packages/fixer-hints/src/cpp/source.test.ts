import { describe, expect, it } from 'vitest';
import { displayColumnToIndex, tokenBefore } from './source.js';

const before = (text: string, marker = '@'): string | undefined => {
  const at = text.indexOf(marker);
  const t = tokenBefore(text.replace(marker, ''), at);
  return t && text.replace(marker, '').slice(t.start, t.end);
};

describe('displayColumnToIndex', () => {
  it('counts a tab to the next multiple of 8, as GCC does', () => {
    expect(displayColumnToIndex('\treturn x;', 9)).toBe(1);
    expect(displayColumnToIndex('  \tint', 9)).toBe(3);
    expect(displayColumnToIndex('  return', 3)).toBe(2);
    expect(displayColumnToIndex('\treturn', 4)).toBeUndefined();
  });
});

describe('tokenBefore', () => {
  it('skips whitespace, line and block comments and preprocessor lines', () => {
    expect(before('int x = 1  // one\n  /* two */ @return')).toBe('1');
    expect(before('int x = y\n#endif\n  @return')).toBe('y');
  });

  it('keeps literals whole: strings with escapes, raw strings, characters and digit separators', () => {
    expect(before('auto s = "a\\"b // no"\n@return')).toBe('"a\\"b // no"');
    expect(before('auto s = R"x(a ) " b)x"\n@return')).toBe('R"x(a ) " b)x"');
    expect(before("char c = '\\''\n@return")).toBe("'\\''");
    expect(before("int n = 1'000'000\n@return")).toBe("1'000'000");
    expect(before('double d = 1.5e-3\n@return')).toBe('1.5e-3');
  });

  it('reads multi-character operators as one token', () => {
    expect(before('i++\n@return')).toBe('++');
    expect(before('a->b\n@return')).toBe('b');
  });

  it('gives up on an unterminated literal or comment', () => {
    expect(before('auto s = "abc\n@return')).toBeUndefined();
    expect(before('/* open\n@return')).toBeUndefined();
  });
});
