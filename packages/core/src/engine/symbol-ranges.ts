import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Failure, RankedSymbol, Scope, ScopeEntry } from '../api/contracts/failure.js';

/** A block longer than this is cut: the budget decides how much of it is sent. */
const MAX_BLOCK = 400;

const escapeRe = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Decorator, attribute and comment lines right above a definition (0-based index `at`). */
function leadingDecorations(lines: readonly string[], at: number): number {
  let n = 0;
  while (at - n - 1 >= 0 && /^\s*(@|#\[|\/\/|\/\*|\*|\/\/\/|template\s*<)/.test(lines[at - n - 1]!)) n++;
  return n;
}

/**
 * 1-based last line of the block a definition opens at 0-based `at`: by indentation when the
 * header ends with a colon (Python), by matching braces otherwise (C, C++, JS, TS); a declaration
 * that ends in `;` before any brace is its own line. Strings and comments are not parsed, which is
 * good enough to slice a function out for a prompt.
 */
export function blockEnd(lines: readonly string[], at: number): number {
  const limit = Math.min(lines.length, at + MAX_BLOCK);
  const indent = (l: string): number => l.length - l.trimStart().length;
  let header = at;
  while (header < limit - 1 && !/[:{;]\s*(#.*|\/\/.*)?$/.test(lines[header]!)) header++;
  const head = lines[header]!;
  if (/:\s*(#.*)?$/.test(head) && !head.includes('{')) {
    const base = indent(lines[at]!);
    let last = header;
    for (let i = header + 1; i < limit; i++) {
      const l = lines[i]!;
      if (l.trim() === '') continue;
      if (indent(l) <= base) break;
      last = i;
    }
    return last + 1;
  }
  if (/;\s*(\/\/.*)?$/.test(head) && !lines.slice(at, header + 1).some((l) => l.includes('{')))
    return header + 1;
  let depth = 0;
  let opened = false;
  for (let i = at; i < limit; i++) {
    for (const ch of lines[i]!) {
      if (ch === '{') {
        depth++;
        opened = true;
      } else if (ch === '}') depth--;
    }
    if (opened && depth <= 0) return i + 1;
  }
  return limit;
}

/** The line that defines `symbol` (a function, class, method, Jest test or GoogleTest case), 0-based. */
export function definitionLine(lines: readonly string[], symbol: string): number {
  // `cart > adds` (a Jest test under a describe), `Suite.Case` (GoogleTest), `Cart.total`
  const title = symbol.split(' > ').pop()!;
  const testTitle = new RegExp(`\\b(test|it)(\\.\\w+)?\\s*\\(\\s*(['"\`])${escapeRe(title)}\\3`);
  const gtest = /^([A-Za-z_]\w*)[./]([A-Za-z_]\w*)(\/\d+)?$/.exec(symbol);
  const gtestDef = gtest
    ? new RegExp(`\\bTEST(_F|_P)?\\s*\\(\\s*${escapeRe(gtest[1]!)}\\s*,\\s*${escapeRe(gtest[2]!)}\\s*\\)`)
    : undefined;
  const name = escapeRe(symbol.split(/[.:>\s]+/).pop() ?? symbol);
  const def = new RegExp(
    `\\b(def|class|function\\*?|fn|struct|async\\s+def|async\\s+function)\\s+${name}\\b|\\b${name}\\s*(=\\s*(async\\s*)?(\\(|function|[A-Za-z_]\\w*\\s*=>)|\\([^;]*\\)\\s*(const\\s*)?(noexcept\\s*)?(->\\s*[\\w:<>]+\\s*)?\\{?\\s*(//.*)?$|:\\s*(async\\s*)?(\\(|function))`,
  );
  // a declaration, when the file only declares it (a header)
  const decl = new RegExp(`^[^(]*\\b${name}\\s*\\([^;{]*\\)\\s*(const\\s*)?(noexcept\\s*)?(override\\s*)?;`);
  for (const re of [gtestDef, testTitle, def, decl]) {
    if (!re) continue;
    const at = lines.findIndex((l) => re.test(l));
    if (at >= 0) return at;
  }
  return -1;
}

/** 1-based range of the definition of `symbol`, decorators and leading comments included. */
export function definitionRange(lines: readonly string[], symbol: string): [number, number] | undefined {
  const at = definitionLine(lines, symbol);
  if (at < 0) return undefined;
  return [Math.max(1, at + 1 - leadingDecorations(lines, at)), blockEnd(lines, at)];
}

/** The innermost definition that holds 1-based `line`, as a range, when one is found above it. */
export function enclosingRange(lines: readonly string[], line: number): [number, number] | undefined {
  const opener =
    /^\s*(async\s+)?(def|class|function)\b|^\s*(static\s+|inline\s+|virtual\s+)*[\w:<>,*&\s]+[\s*&]([A-Za-z_][\w:]*)\s*\([^;]*$|\bTEST(_F|_P)?\s*\(|\b(test|it|describe)\s*\(/;
  for (let at = Math.min(line, lines.length) - 1; at >= 0 && at >= line - MAX_BLOCK; at--) {
    if (!opener.test(lines[at]!)) continue;
    const end = blockEnd(lines, at);
    if (end >= line) return [Math.max(1, at + 1 - leadingDecorations(lines, at)), end];
  }
  return undefined;
}

/**
 * A ranking for a scope whose analyzer does not rank: each entry's symbols where they are defined
 * (the functions of the failure's frames first), scored by the entry's place and depth, so that
 * the same budget-by-rank applies to every analyzer. Entries already ranked are kept as they are.
 */
export async function rankByDefinitions(root: string, failure: Failure, scope: Scope): Promise<Scope> {
  const places = [...(failure.location ? [failure.location] : []), ...failure.frames];
  const entries: ScopeEntry[] = [];
  for (const [index, entry] of scope.entries.entries()) {
    if (entry.ranking?.length || entry.score !== undefined) {
      entries.push(entry);
      continue;
    }
    const text = await readFile(join(root, entry.file), 'utf8').catch(() => undefined);
    if (text === undefined || text.includes('\0')) {
      entries.push(entry);
      continue;
    }
    const lines = text.split('\n');
    const role = entry.role === 'source' ? 1 : entry.role === 'test' ? 0.5 : 0.4;
    const base = Math.max(0.05, role * (0.9 - 0.1 * entry.depth - 0.02 * index));
    const ranking: RankedSymbol[] = [];
    const reason = entry.reasons[0]!;
    for (const place of places) {
      if (place.file !== entry.file || !place.line) continue;
      const range = enclosingRange(lines, place.line);
      const symbol = place.symbol ?? `line ${place.line}`;
      const score = entry.role === 'test' ? base : 1;
      if (range) ranking.push({ symbol, score, reason, line: range[0], endLine: range[1] });
    }
    entry.symbols.forEach((symbol, i) => {
      const range = definitionRange(lines, symbol);
      if (!range || ranking.some((r) => r.line === range[0])) return;
      ranking.push({
        symbol,
        score: Math.max(0.01, base - 0.01 * i),
        reason,
        line: range[0],
        endLine: range[1],
      });
    });
    entries.push({ ...entry, score: Math.max(base, ...ranking.map((r) => r.score)), ranking });
  }
  return { ...scope, entries };
}
