import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Failure, Scope } from '../api/contracts/failure.js';
import type { OmittedSource, SourceSlice } from '../api/contracts/fix.js';

/** A file small enough is sent whole once the ranked functions are in: it reads better than parts. */
const WHOLE_FILE = 16_000;
/** The longest part of one function sent; a longer one is cut around the failing line. */
const MAX_FUNCTION = 6_000;
/** Lines around a place with no function to slice (a location outside any function). */
const WINDOW = 40;
/** The failing test's own code is context, not a suspect: it gets at most this share up front. */
const TEST_SHARE = 0.25;
const MAX_REASON = 200;
/** Ranked functions named as left out, at most. */
const MAX_OMITTED = 12;

/** The slices a fixer gets, and the ranked functions and files the budget left out. */
export interface RankedSources {
  slices: SourceSlice[];
  omitted: OmittedSource[];
}

interface Item {
  file: string;
  score: number;
  reason: string;
  symbol?: string;
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
        symbol: r.symbol,
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

/**
 * The part of a function's lines to send: all of it, or a window of it around the first line the
 * failure went through inside it (its location or a frame of its trace), else its head.
 */
function clip(range: Range, lines: readonly string[], marked: readonly number[], limit: number): Range {
  const [start, end] = range;
  let chars = 0;
  for (let i = start; i <= end; i++) chars += (lines[i - 1]?.length ?? 0) + 1;
  if (chars <= limit) return range;
  const avg = chars / (end - start + 1);
  const span = Math.max(10, Math.floor(limit / avg));
  const failingLine = marked.find((l) => l >= start && l <= end);
  if (failingLine !== undefined) {
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

/** Lines the failure went through, per file: its location and the frames of its trace. */
function markedLines(failure: Failure): Map<string, number[]> {
  const out = new Map<string, number[]>();
  for (const f of [...(failure.location ? [failure.location] : []), ...failure.frames]) {
    if (!f.line) continue;
    const list = out.get(f.file) ?? [];
    if (!list.includes(f.line)) list.push(f.line);
    out.set(f.file, list);
  }
  return out;
}

/**
 * Source slices within a character budget, spent in rank order on functions rather than files:
 * the failing test's own function first (at most a quarter of the budget), then every ranked
 * function of the scope by score across files, whole (one longer than what is left is cut around
 * the line the failure went through in it), then unranked entries; what budget is left makes
 * small files whole. Each slice says why it is there and marks the lines the failure went
 * through; what the budget left out is named with the reason.
 */
export async function rankedSources(
  root: string,
  failure: Failure,
  scope: Scope,
  budgetChars: number,
): Promise<RankedSources> {
  const texts = new Map<string, string[] | null>();
  const linesOf = async (file: string): Promise<string[] | null> => {
    if (!texts.has(file)) {
      const text = await readFile(join(root, file), 'utf8').catch(() => null);
      texts.set(file, text === null || text.includes('\0') ? null : text.split('\n'));
    }
    return texts.get(file)!;
  };
  const marked = markedLines(failure);
  let budget = budgetChars;
  const covered = new Map<string, Part[]>();
  let order = 0;
  const omitted: OmittedSource[] = [];
  /** Takes what of `range` is not sent yet, within the budget; answers how many lines it took. */
  const take = (
    file: string,
    lines: readonly string[],
    range: Range,
    reason: string,
    cap: number,
  ): number => {
    let taken = 0;
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
      taken += e - s + 1;
      const list = covered.get(file) ?? [];
      list.push({ range: [s, e], reason, order: order++ });
      covered.set(file, list);
    }
    return taken;
  };
  for (const item of items(failure, scope)) {
    const lines = budget > 200 ? await linesOf(item.file) : undefined;
    if (lines === null) continue;
    const whole: Range | undefined =
      item.start !== undefined && item.end !== undefined && lines
        ? [Math.max(1, item.start), Math.min(lines.length, Math.max(item.start, item.end))]
        : undefined;
    if (!lines) {
      omitted.push(omission(item, whole, 'the source budget was spent on higher-ranked code'));
      continue;
    }
    const cap = item.first ? Math.floor(budgetChars * TEST_SHARE) : Number.POSITIVE_INFINITY;
    const range = whole
      ? clip(whole, lines, marked.get(item.file) ?? [], Math.min(MAX_FUNCTION, budget, cap))
      : ([1, Math.min(lines.length, WINDOW * 2)] as Range);
    take(item.file, lines, range, item.reason.slice(0, MAX_REASON), cap);
    if (whole && (range[0] > whole[0] || range[1] < whole[1]))
      omitted.push(
        omission(item, whole, `too long for the budget left: lines ${range[0]}-${range[1]} of it are sent`),
      );
  }
  wholeFiles(covered, texts, budget);
  const slices = toSlices(covered, texts, marked);
  // a file made whole after all holds what was cut from it
  const sent = (o: OmittedSource): boolean =>
    slices.some(
      (s) =>
        s.file === o.file &&
        o.startLine !== undefined &&
        s.startLine <= o.startLine &&
        (o.endLine ?? o.startLine) <= s.endLine,
    );
  return { slices, omitted: omitted.filter((o) => !sent(o)).slice(0, MAX_OMITTED) };
}

/** Source slices only: `rankedSources` without what it left out. */
export async function rankedSlices(
  root: string,
  failure: Failure,
  scope: Scope,
  budgetChars: number,
): Promise<SourceSlice[]> {
  return (await rankedSources(root, failure, scope, budgetChars)).slices;
}

interface Part {
  range: Range;
  reason: string;
  order: number;
}

function omission(item: Item, range: Range | undefined, reason: string): OmittedSource {
  return {
    file: item.file,
    ...(item.symbol ? { symbol: item.symbol } : {}),
    ...(range ? { startLine: range[0], endLine: range[1] } : {}),
    reason,
  };
}

/** What budget is left makes the likeliest files whole, when they are small. */
function wholeFiles(
  covered: Map<string, Part[]>,
  texts: ReadonlyMap<string, string[] | null>,
  left: number,
): void {
  let budget = left;
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
}

function sizeOf(lines: readonly string[], [s, e]: Range): number {
  let n = 0;
  for (let i = s; i <= e; i++) n += (lines[i - 1]?.length ?? 0) + 1;
  return n;
}

/** Per file in the order its first part was taken, its parts by line, adjacent ones joined. */
function toSlices(
  covered: ReadonlyMap<string, Part[]>,
  texts: ReadonlyMap<string, string[] | null>,
  marked: ReadonlyMap<string, readonly number[]>,
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
    for (const m of merged) {
      const inside = (marked.get(file) ?? []).filter((l) => l >= m.range[0] && l <= m.range[1]);
      out.push({
        file,
        startLine: m.range[0],
        endLine: m.range[1],
        text: lines.slice(m.range[0] - 1, m.range[1]).join('\n'),
        reason: m.reasons.slice(0, 3).join('; ').slice(0, MAX_REASON),
        ...(inside.length > 0 ? { marked: inside.sort((a, b) => a - b) } : {}),
      });
    }
  }
  return out;
}
