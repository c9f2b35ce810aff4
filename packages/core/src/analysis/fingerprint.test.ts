import { describe, expect, it } from 'vitest';
import { failureFingerprint, normalizeMessage, type FailureSignature } from './fingerprint.js';

describe('normalizeMessage', () => {
  it.each([
    ['numbers and line numbers', 'assert 7 == 6 (line 12, col 3.5)', 'assert ? == ? (line ?, col ?)'],
    ['file:line:column', 'at src/cart.js:41:17', 'at src/cart.js:?:?'],
    [
      'addresses',
      'heap-buffer-overflow on address 0x602000000014 at pc 0x55d4',
      'heap-buffer-overflow on address 0x? at pc 0x?',
    ],
    ['single-quoted values', "KeyError: 'apple'", "KeyError: '?'"],
    ['double-quoted values', 'Expected: "a-b"\nReceived: "a-b-"', 'Expected: "?" Received: "?"'],
    ['backquoted values', 'unknown unit `kg`', 'unknown unit `?`'],
    ['apostrophes are not quotes', "can't open 'x' and won't retry", "can't open '?' and won't retry"],
    ['temporary paths', 'No such file: /tmp/pytest-of-me/pytest-3/test_a0/data.txt', 'No such file: <path>'],
    [
      'absolute paths before a line',
      '/home/ci/repo/src/calc.cpp:8: int slot(int): failed',
      '<path>:?: int slot(int): failed',
    ],
    [
      'relative paths and URLs stay',
      'GET http://localhost/api failed in src/app.py',
      'GET http://localhost/api failed in src/app.py',
    ],
    ['identifiers keep their digits', 'utf8 decode of sha1 in int64_t', 'utf8 decode of sha1 in int64_t'],
    ['colour codes and whitespace', '\x1b[31mexpected\x1b[39m   1\n\n  got 2', 'expected ? got ?'],
  ])('%s', (_, message, normalized) => {
    expect(normalizeMessage(message)).toBe(normalized);
  });

  it('keeps a bounded prefix of a long message', () => {
    expect(normalizeMessage(`boom ${'x'.repeat(2000)}`)).toHaveLength(500);
  });
});

describe('failureFingerprint', () => {
  const base: FailureSignature = {
    kind: 'exception',
    type: 'KeyError',
    message: "KeyError: 'apple'",
    frame: { file: 'src/cart.py', symbol: 'price_of' },
  };

  it('is the same for messages that differ only in values', () => {
    expect(failureFingerprint({ ...base, message: "KeyError: 'pear'" })).toBe(failureFingerprint(base));
    expect(failureFingerprint({ ...base, message: "KeyError: 'apple'  " })).toBe(failureFingerprint(base));
  });

  it('differs in the kind, the type, the message text, the frame file or the frame symbol', () => {
    const fp = failureFingerprint(base);
    expect(failureFingerprint({ ...base, kind: 'assertion' })).not.toBe(fp);
    expect(failureFingerprint({ ...base, type: 'IndexError' })).not.toBe(fp);
    expect(failureFingerprint({ ...base, message: "KeyError: missing 'apple'" })).not.toBe(fp);
    expect(failureFingerprint({ ...base, frame: { file: 'src/shop.py', symbol: 'price_of' } })).not.toBe(fp);
    expect(failureFingerprint({ ...base, frame: { file: 'src/cart.py', symbol: 'total' } })).not.toBe(fp);
    expect(failureFingerprint({ ...base, frame: undefined })).not.toBe(fp);
  });

  it('is a short hex string', () => {
    expect(failureFingerprint(base)).toMatch(/^[0-9a-f]{16}$/);
  });
});
