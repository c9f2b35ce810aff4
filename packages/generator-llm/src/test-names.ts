import { entryOf } from '@suture/core/host';
import type { Family } from './layout.js';

/**
 * The test ids of a generated file as its runner will report them, read from the text: the
 * filter reports per test, and names a file's tests even when it does not build. Reading the
 * text is enough here: the model was asked for plain test functions, cases and calls.
 */
export function testIds(family: Family, file: string, content: string): string[] {
  if (family === 'python') return pythonTests(content).map((t) => `${file}::${t}`);
  if (family === 'cpp') return gtestCases(content).map((t) => `${entryOf(file)}::${t}`);
  return jestTests(content).map((t) => `${file}::${t}`);
}

/** pytest's names: `test_*` functions, and `test_*` methods of `Test*` classes as `Class::method`. */
export function pythonTests(content: string): string[] {
  const out: string[] = [];
  let cls: { name: string; indent: number | undefined } | undefined;
  for (const line of content.split('\n')) {
    if (!line.trim() || /^\s*[#@]/.test(line)) continue;
    if (/^\S/.test(line)) {
      const fn = line.match(/^(?:async\s+)?def\s+(test\w*)\s*\(/);
      const klass = line.match(/^class\s+(Test\w*)\s*[:(]/);
      cls = klass ? { name: klass[1]!, indent: undefined } : undefined;
      if (fn) out.push(fn[1]!);
      continue;
    }
    if (!cls) continue;
    const method = line.match(/^(\s+)(?:async\s+)?def\s+(\w+)\s*\(/);
    if (!method) continue;
    // methods are the defs at the class body's own indentation, not functions nested in them
    cls.indent ??= method[1]!.length;
    if (method[1]!.length === cls.indent && method[2]!.startsWith('test'))
      out.push(`${cls.name}::${method[2]}`);
  }
  return out;
}

const stripComments = (text: string): string =>
  text.replace(/\/\*[\s\S]*?\*\//g, ' ').replace(/\/\/.*$/gm, '');

/** GoogleTest's names of TEST and TEST_F cases: `Suite.Name`. */
export function gtestCases(content: string): string[] {
  return [...stripComments(content).matchAll(/\bTEST(?:_F)?\s*\(\s*(\w+)\s*,\s*(\w+)\s*\)/g)].map(
    (m) => `${m[1]}.${m[2]}`,
  );
}

const CALL = /(?<![\w$.])(describe|it|test)(?:\.(?:only|concurrent))?\s*\(\s*(['"`])/y;

/** The end of the string literal opening at `at`, or -1; template literals with `${` count as unreadable. */
function stringEnd(text: string, at: number): { end: number; value: string | undefined } {
  const quote = text[at]!;
  let value = '';
  for (let i = at + 1; i < text.length; i++) {
    const c = text[i]!;
    if (c === '\\') {
      value += text[i + 1] ?? '';
      i++;
    } else if (c === quote) return { end: i, value };
    else if (quote === '`' && c === '$' && text[i + 1] === '{') {
      const close = text.indexOf('`', i);
      return { end: close < 0 ? text.length : close, value: undefined };
    } else if (c === '\n' && quote !== '`') return { end: i, value: undefined };
    else value += c;
  }
  return { end: text.length, value: undefined };
}

/**
 * Jest's full names (`describe` titles and the test's, joined by spaces) of the `it` and `test`
 * calls with a literal title, found by one pass that skips comments and strings and follows the
 * parentheses each `describe` opens.
 */
export function jestTests(content: string): string[] {
  const out: string[] = [];
  const open: Array<{ depth: number; title: string | undefined }> = [];
  let depth = 0;
  for (let i = 0; i < content.length; i++) {
    const c = content[i]!;
    const next = content[i + 1];
    if (c === '/' && next === '/') {
      const eol = content.indexOf('\n', i);
      i = eol < 0 ? content.length : eol;
    } else if (c === '/' && next === '*') {
      const close = content.indexOf('*/', i + 2);
      i = close < 0 ? content.length : close + 1;
    } else if (c === '"' || c === "'" || c === '`') {
      i = stringEnd(content, i).end;
    } else if (c === '(') depth++;
    else if (c === ')') {
      depth--;
      while (open.length && open.at(-1)!.depth > depth) open.pop();
    } else {
      CALL.lastIndex = i;
      const m = CALL.exec(content);
      if (!m) continue;
      const quoteAt = i + m[0].length - 1;
      const { end, value } = stringEnd(content, quoteAt);
      depth++;
      const titles = open.map((o) => o.title);
      if (m[1] === 'describe') open.push({ depth, title: value });
      else if (value !== undefined && titles.every((t) => t !== undefined))
        out.push([...titles, value].join(' '));
      i = end;
    }
  }
  return out;
}
