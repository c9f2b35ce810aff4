import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Failure, Scope } from '../api/contracts/failure.js';
import type { SourceSlice } from '../api/contracts/fix.js';

/** A file small enough is sent whole once the ranked functions are in: it reads better than parts. */
const WHOLE_FILE = 16_000;
/** The longest part of one function sent; a longer one is cut around the failing line. */
const MAX_FUNCTION = 6_000;
/** Lines around a place with no function to slice (a location outside any function). */
const WINDOW = 40;
/** The failing test's own code is context, not a suspect: it gets at most this share up front. */
const TEST_SHARE = 0.25;
const MAX_REASON = 200;

interface Item {
  file: string;
  score: number;
  reason: string;
  start?: number;
  end?: number;
  /** The test the failure was raised in: sent first. */
  first?: boolean;
}

type Range = [number, number];

function items(failure: Failure, scope: Scope): Item[] {
  const out: Item[] = [];
  const loc = failure.location;
  scope.entries.forEach((entry, index) => {
    // unranked entries (an analyzer that does not rank) follow the ranked ones in their own order
    const entryScore = entry.score ?? -1 - index / 1000;
    const reason = entry.reasons.join('; ');
    const atLocation = loc?.file === entry.file;
    for (const r of entry.ranking ?? []) {
      const first = atLocation && entry.role === 'test' && r.symbol === loc?.symbol;
      out.push({
        file: entry.file,
        score: r.score,
        reason: r.reason,
        ...(r.line ? { start: r.line, end: r.endLine ?? r.line } : {}),
        ...(first ? { first } : {}),
      });
    }
    if (!entry.ranking?.length) {
      const line = atLocation ? loc?.line : undefined;
      out.push({
        file: entry.file,
        score: entryScore,
        reason,
        ...(line ? { start: line - WINDOW, end: line + WINDOW } : {}),
      });
    }
  });
  return out.sort((a, b) => Number(b.first ?? false) - Number(a.first ?? false) || b.score - a.score);
}

/** The part of a function's lines to send: all of it, or a window of it around the failing line. */
function clip(range: Range, lines: readonly string[], failingLine: number | undefined): Range {
  const [start, end] = range;
  let chars = 0;
  for (let i = start; i <= end; i++) chars += (lines[i - 1]?.length ?? 0) + 1;
  if (chars <= MAX_FUNCTION) return range;
  const avg = chars / (end - start + 1);
  const span = Math.max(10, Math.floor(MAX_FUNCTION / avg));
  if (failingLine && failingLine >= start && failingLine <= end) {
    const from = Math.max(start, failingLine - Math.floor(span / 2));
    return [from, Math.min(end, from + span - 1)];
  }
  return [start, Math.min(end, start + span - 1)];
}

/** Line ranges not yet covered by `covered`, within `range`. */
function uncovered(range: Range, covered: readonly Range[]): Range[] {
  let parts: Range[] = [range];
  for (const [cs, ce] of covered) {
    parts = parts.flatMap(([s, e]): Range[] => {
      if (ce < s || cs > e) return [[s, e]];
      const out: Range[] = [];
      if (cs > s) out.push([s, cs - 1]);
      if (ce < e) out.push([ce + 1, e]);
      return out;
    });
  }
  return parts;
}

/**
 * Source slices within a character budget, spent in rank order on functions rather than files:
 * the failing test's own function first (at most a quarter of the budget), then every ranked
 * function of the scope by score across files (a long one cut around the failing line), then
 * unranked entries; what budget is left makes small files whole. Each slice says why it is there.
 */
export async function rankedSlices(
  root: string,
  failure: Failure,
  scope: Scope,
  budgetChars: number,
): Promise<SourceSlice[]> {
  const texts = new Map<string, string[] | null>();
  const linesOf = async (file: string): Promise<string[] | null> => {
    if (!texts.has(file)) {
      const text = await readFile(join(root, file), 'utf8').catch(() => null);
      texts.set(file, text === null || text.includes('\0') ? null : text.split('\n'));
    }
    return texts.get(file)!;
  };
  let budget = budgetChars;
  const covered = new Map<string, Array<{ range: Range; reason: string; order: number }>>();
  let order = 0;
  const take = (file: string, lines: readonly string[], range: Range, reason: string, cap: number): void => {
    for (const part of uncovered(
      range,
      (covered.get(file) ?? []).map((c) => c.range),
    )) {
      const s = part[0];
      let e = part[1];
      let size = 0;
      for (let i = s; i <= e; i++) {
        const next = size + (lines[i - 1]?.length ?? 0) + 1;
        if (next > Math.min(budget, cap)) {
          e = i - 1;
          break;
        }
        size = next;
      }
      if (e < s) continue;
      budget -= size;
      const list = covered.get(file) ?? [];
      list.push({ range: [s, e], reason, order: order++ });
      covered.set(file, list);
    }
  };
  for (const item of items(failure, scope)) {
    if (budget <= 200) break;
    const lines = await linesOf(item.file);
    if (!lines) continue;
    const total = lines.length;
    const failingLine = failure.location?.file === item.file ? failure.location.line : undefined;
    let range: Range;
    if (item.start !== undefined && item.end !== undefined) {
      range = clip(
        [Math.max(1, item.start), Math.min(total, Math.max(item.start, item.end))],
        lines,
        failingLine,
      );
    } else {
      range = [1, Math.min(total, WINDOW * 2)];
    }
    const cap = item.first ? Math.floor(budgetChars * TEST_SHARE) : Number.POSITIVE_INFINITY;
    take(item.file, lines, range, item.reason.slice(0, MAX_REASON), cap);
  }
  // what is left makes the likeliest files whole, when they are small
  for (const file of covered.keys()) {
    const lines = texts.get(file)!;
    const size = lines.join('\n').length;
    const spent = covered.get(file)!.reduce((n, c) => n + sizeOf(lines, c.range), 0);
    if (size > WHOLE_FILE || size - spent > budget) continue;
    budget -= size - spent;
    const reasons = [...new Set(covered.get(file)!.map((c) => c.reason))];
    const first = Math.min(...covered.get(file)!.map((c) => c.order));
    covered.set(file, [
      { range: [1, lines.length], reason: reasons.join('; ').slice(0, MAX_REASON), order: first },
    ]);
  }
  return toSlices(covered, texts);
}

function sizeOf(lines: readonly string[], [s, e]: Range): number {
  let n = 0;
  for (let i = s; i <= e; i++) n += (lines[i - 1]?.length ?? 0) + 1;
  return n;
}

/** Per file in the order its first part was taken, its parts by line, adjacent ones joined. */
function toSlices(
  covered: ReadonlyMap<string, Array<{ range: Range; reason: string; order: number }>>,
  texts: ReadonlyMap<string, string[] | null>,
): SourceSlice[] {
  const files = [...covered.entries()].sort(
    (a, b) => Math.min(...a[1].map((c) => c.order)) - Math.min(...b[1].map((c) => c.order)),
  );
  const out: SourceSlice[] = [];
  for (const [file, parts] of files) {
    const lines = texts.get(file)!;
    const sorted = [...parts].sort((a, b) => a.range[0] - b.range[0]);
    const merged: Array<{ range: Range; reasons: string[] }> = [];
    for (const p of sorted) {
      const last = merged[merged.length - 1];
      if (last && p.range[0] <= last.range[1] + 1) {
        last.range[1] = Math.max(last.range[1], p.range[1]);
        if (!last.reasons.includes(p.reason)) last.reasons.push(p.reason);
      } else merged.push({ range: [...p.range], reasons: [p.reason] });
    }
    for (const m of merged)
      out.push({
        file,
        startLine: m.range[0],
        endLine: m.range[1],
        text: lines.slice(m.range[0] - 1, m.range[1]).join('\n'),
        reason: m.reasons.slice(0, 3).join('; ').slice(0, MAX_REASON),
      });
  }
  return out;
}
