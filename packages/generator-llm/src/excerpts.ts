import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { SourceSlice } from '@suture/core';
import type { Family } from './layout.js';

/** Files over this size are not read at all: a generated or vendored file teaches nothing. */
const MAX_READ = 512 * 1024;

/** A project file's text, or undefined when it is missing, too large or unreadable. */
export async function readProjectFile(root: string, file: string): Promise<string | undefined> {
  const path = join(root, file);
  try {
    if ((await stat(path)).size > MAX_READ) return undefined;
    return await readFile(path, 'utf8');
  } catch {
    return undefined;
  }
}

const linesOf = (text: string): string[] => text.replace(/\n$/, '').split('\n');

/** Lines `from`..`to` (1-based, inclusive) as a slice, cut back to whole lines within `maxChars`. */
function slice(
  file: string,
  lines: readonly string[],
  from: number,
  to: number,
  maxChars: number,
  reason: string,
): SourceSlice {
  const kept: string[] = [];
  let size = 0;
  for (let n = from; n <= to; n++) {
    const line = lines[n - 1]!;
    if (kept.length > 0 && size + line.length + 1 > maxChars) break;
    kept.push(line);
    size += line.length + 1;
  }
  return { file, startLine: from, endLine: from + kept.length - 1, text: kept.join('\n'), reason };
}

/** The whole file when it fits, else its first lines. */
export function head(file: string, text: string, maxChars: number, reason: string): SourceSlice {
  const lines = linesOf(text);
  return slice(file, lines, 1, Math.max(1, lines.length), maxChars, reason);
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Where a symbol is defined in a file of the family, by its usual definition forms. */
export function definitionLine(family: Family, text: string, symbol: string): number | undefined {
  const s = escapeRegExp(symbol.split(/[.:]+/).pop()!);
  const forms: Record<Family, RegExp> = {
    python: new RegExp(`^\\s*(?:async\\s+)?(?:def|class)\\s+${s}\\b`),
    javascript: new RegExp(
      `(?:function\\s*\\*?\\s*${s}\\b|(?:const|let|var)\\s+${s}\\s*=|^\\s*(?:async\\s+)?${s}\\s*\\([^)]*\\)\\s*\\{|class\\s+${s}\\b)`,
    ),
    cpp: new RegExp(`\\b${s}\\s*\\([^;]*$`),
  };
  const at = linesOf(text).findIndex((l) => forms[family].test(l));
  return at < 0 ? undefined : at + 1;
}

/**
 * The target as the model should read it: the whole file when it fits; else, for a symbol, from
 * a few lines above its definition on; else the file's beginning.
 */
export function targetSlice(
  family: Family,
  file: string,
  text: string,
  symbols: readonly string[],
  maxChars: number,
): SourceSlice {
  const lines = linesOf(text);
  const reason = 'the code under test';
  if (text.length <= maxChars) return slice(file, lines, 1, Math.max(1, lines.length), maxChars, reason);
  const at = symbols.map((s) => definitionLine(family, text, s)).find((n) => n !== undefined);
  return slice(file, lines, Math.max(1, (at ?? 1) - 3), lines.length, maxChars, reason);
}

/**
 * The lines around each use of a name (a few lines either side, windows merged), within
 * `maxChars`: how a caller uses the target, without the rest of the caller.
 */
export function usesOf(
  file: string,
  text: string,
  names: readonly string[],
  maxChars: number,
  context = 4,
): SourceSlice[] {
  const lines = linesOf(text);
  const pattern = new RegExp(`\\b(?:${names.map(escape).join('|')})\\b`);
  const windows: Array<[number, number]> = [];
  lines.forEach((l, i) => {
    if (!pattern.test(l)) return;
    const from = Math.max(1, i + 1 - context);
    const to = Math.min(lines.length, i + 1 + context);
    const last = windows.at(-1);
    if (last && from <= last[1] + 1) last[1] = to;
    else windows.push([from, to]);
  });
  const out: SourceSlice[] = [];
  let left = maxChars;
  for (const [from, to] of windows) {
    if (left < 80) break;
    const s = slice(file, lines, from, to, left, 'a caller of the target');
    out.push(s);
    left -= s.text.length + 1;
  }
  return out;
}

/** Line numbers as ranges: 3,4,5,9 -> 3-5, 9. */
export function ranges(lines: readonly number[]): string {
  const sorted = [...new Set(lines)].sort((a, b) => a - b);
  const out: string[] = [];
  for (let i = 0; i < sorted.length; i++) {
    const start = sorted[i]!;
    while (i + 1 < sorted.length && sorted[i + 1] === sorted[i]! + 1) i++;
    out.push(start === sorted[i] ? `${start}` : `${start}-${sorted[i]}`);
  }
  return out.join(', ');
}

/** The target's lines no test runs, each with its number and code, at most `max` of them. */
export function quoteLines(text: string, numbers: readonly number[], max = 80): string {
  const lines = linesOf(text);
  const sorted = [...new Set(numbers)].sort((a, b) => a - b);
  const width = String(sorted.at(-1) ?? 0).length;
  const shown = sorted.slice(0, max).map((n) => `${String(n).padStart(width)}: ${lines[n - 1] ?? ''}`);
  if (sorted.length > max) shown.push(`(${sorted.length - max} more)`);
  return shown.join('\n');
}
