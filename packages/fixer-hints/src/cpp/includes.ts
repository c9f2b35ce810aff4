/** An `#include` of the file's leading block, outside any `#if`. */
interface Include {
  /** 0-based line. */
  line: number;
  name: string;
  angle: boolean;
}

/**
 * The includes at the top of a file (before its first declaration) that are not inside an `#if`
 * (an include guard does not count), and the line after the guard or `#pragma once`.
 */
function leadingIncludes(lines: readonly string[]): { includes: Include[]; afterGuard: number } {
  const includes: Array<Include & { depth: number }> = [];
  let depth = 0;
  let base = 0;
  let afterGuard = 0;
  let afterPragma = 0;
  let guard: string | undefined;
  let seenDirective = false;
  let inComment = false;
  for (let i = 0; i < lines.length; i++) {
    let line = lines[i]!.trim();
    if (inComment) {
      const close = line.indexOf('*/');
      if (close < 0) continue;
      inComment = false;
      line = line.slice(close + 2).trim();
    }
    if (line.startsWith('/*') && !line.includes('*/')) {
      inComment = true;
      continue;
    }
    line = line
      .replace(/\/\*.*?\*\//g, '')
      .replace(/\/\/.*$/, '')
      .trim();
    if (line === '') continue;
    const directive = /^#\s*(\w+)\s*(.*)$/.exec(line);
    if (!directive) break; // the first declaration ends the leading block
    const [, word, rest] = directive as unknown as [string, string, string];
    if (!seenDirective && word === 'ifndef') guard = rest.trim();
    else if (
      guard !== undefined &&
      depth === 1 &&
      base === 0 &&
      word === 'define' &&
      rest.trim().split(/\s/)[0] === guard
    ) {
      base = 1;
      afterGuard = i + 1;
    } else if (word === 'pragma' && rest.trim() === 'once') afterPragma = i + 1;
    seenDirective = true;
    if (word === 'if' || word === 'ifdef' || word === 'ifndef') depth++;
    else if (word === 'endif') depth--;
    if (depth < base) {
      // an `#ifndef X / #define X` that ends before the code is a conditional, not an include guard
      base = 0;
      afterGuard = 0;
    }
    const inc = word === 'include' ? /^([<"])([^>"]+)[>"]/.exec(rest) : null;
    if (inc) includes.push({ line: i, name: inc[2]!, angle: inc[1] === '<', depth });
  }
  return {
    includes: includes.filter((inc) => inc.depth === base),
    afterGuard: Math.max(base === 1 ? afterGuard : 0, afterPragma),
  };
}

/**
 * Where `#include <header>` goes: among the other standard includes (in order when they are
 * sorted, else after the last), else after the project's includes, else after an include guard,
 * else at the top. Undefined when the file already includes it unconditionally.
 */
export function includeInsertLine(text: string, header: string): number | undefined {
  const { includes, afterGuard } = leadingIncludes(text.split('\n'));
  const name = header.replace(/^<|>$/g, '');
  if (includes.some((i) => i.angle && i.name === name)) return undefined;
  const angle = includes.filter((i) => i.angle);
  if (angle.length > 0) {
    const sorted = angle.every((inc, k) => k === 0 || angle[k - 1]!.name <= inc.name);
    const next = sorted ? angle.find((i) => i.name > name) : undefined;
    return next ? next.line : angle.at(-1)!.line + 1;
  }
  if (includes.length > 0) return includes.at(-1)!.line + 1;
  return afterGuard;
}
