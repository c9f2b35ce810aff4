import { describe, expect, it } from 'vitest';
import { createPythonCache } from './python-model.js';
import { syntaxErrorLine } from './syntax.js';

const parse = (source: string) => createPythonCache(1).parseText(source).tree;
const body = Array.from({ length: 30 }, (_, i) => `def f${i}(x):\n    return x + ${i}\n`).join('\n');

describe('syntaxErrorLine', () => {
  it.each([
    ['a missing parenthesis appended at the end', `${body}\ndef broken(:\n    pass\n`, 91],
    ['an unclosed tuple at the end', `${body}\nx = (1,\n`, 91],
    ['a missing colon', `${body}\nif x\n    y = 1\n`, 91],
    ['a broken expression in the middle', body.replace('return x + 15', 'return x +* 15'), 47],
    ['an error on the first line', `def f(:\n    pass\n${body}`, 1],
  ])('%s: its own line', (_name, source, line) => {
    expect(syntaxErrorLine(parse(source))).toBe(line);
  });

  it('says nothing of a file that parses', () => {
    expect(syntaxErrorLine(parse(body))).toBeUndefined();
  });
});
