/**
 * Just enough C/C++ lexing for the computed fix-its: where tokens end (comments, string and
 * character literals, digit separators and preprocessor lines skipped), and where GCC's columns
 * point.
 */

/** GCC 11+ reports display columns: a tab advances to the next multiple of 8 (`-ftabstop=8`). */
export function displayColumnToIndex(line: string, column: number): number | undefined {
  let col = 1;
  for (let i = 0; i <= line.length; i++) {
    if (col === column) return i;
    if (col > column) return undefined;
    col = line[i] === '\t' ? col + 8 - ((col - 1) % 8) : col + 1;
  }
  return undefined;
}

export interface Token {
  start: number;
  end: number;
}

/**
 * The last token that ends at or before `offset`, outside comments and preprocessor lines, or
 * undefined when the text before it cannot be lexed with confidence (an unterminated literal).
 */
export function tokenBefore(text: string, offset: number): Token | undefined {
  let last: Token | undefined;
  let i = 0;
  let lineStart = true;
  while (i < offset) {
    const c = text[i]!;
    if (c === '\n') {
      lineStart = true;
      i++;
      continue;
    }
    if (c === ' ' || c === '\t' || c === '\r' || c === '\f' || c === '\v') {
      i++;
      continue;
    }
    if (lineStart && c === '#') {
      // a directive, continued by backslash-newlines, is not part of the token stream
      while (i < text.length && text[i] !== '\n') i += text[i] === '\\' && text[i + 1] === '\n' ? 2 : 1;
      continue;
    }
    lineStart = false;
    if (c === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
      continue;
    }
    if (c === '/' && text[i + 1] === '*') {
      const close = text.indexOf('*/', i + 2);
      if (close < 0) return undefined;
      i = close + 2;
      continue;
    }
    const start = i;
    const raw = /^(?:u8|[uUL])?R"([^()\\\s]{0,16})\(/.exec(text.slice(i, i + 24));
    if (raw) {
      const close = text.indexOf(`)${raw[1]}"`, i + raw[0].length);
      if (close < 0) return undefined;
      i = close + raw[1]!.length + 2;
    } else if (
      c === '"' ||
      c === "'" ||
      (/[uUL]/.test(c) && /^(?:u8|[uUL])["']/.test(text.slice(i, i + 3)))
    ) {
      const quote = text.slice(i, i + 3).match(/["']/)![0];
      i = text.indexOf(quote, i) + 1;
      while (i < text.length && text[i] !== quote) {
        if (text[i] === '\n') return undefined;
        i += text[i] === '\\' ? 2 : 1;
      }
      if (i >= text.length) return undefined;
      i++;
    } else if (/[0-9]/.test(c) || (c === '.' && /[0-9]/.test(text[i + 1] ?? ''))) {
      // pp-number: digits, letters, dots, digit separators and signed exponents
      i++;
      while (
        i < text.length &&
        (/[\w.]/.test(text[i]!) ||
          (text[i] === "'" && /\w/.test(text[i + 1] ?? '')) ||
          (/[+-]/.test(text[i]!) && /[eEpP]/.test(text[i - 1]!)))
      )
        i++;
    } else if (/[A-Za-z_$]/.test(c)) {
      while (i < text.length && /[\w$]/.test(text[i]!)) i++;
    } else {
      const punct =
        /^(?:->\*|<=>|<<=|>>=|\.\.\.|::|->|\+\+|--|<<|>>|<=|>=|==|!=|&&|\|\||[-+*/%&|^!=<>]=|[\s\S])/.exec(
          text.slice(i, i + 3),
        )![0];
      i += punct.length;
    }
    last = { start, end: i };
  }
  return last;
}

export function lineColumnOf(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return { line, column: offset - before.lastIndexOf('\n') };
}
