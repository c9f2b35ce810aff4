import { posix } from 'node:path';
import type { SourceSlice } from '@suture/core';
import { head, readProjectFile, usesOf } from './excerpts.js';

/** Bounds of what goes into one prompt, in characters (about 4 a token). */
export const BOUNDS = {
  target: 12_000,
  header: 4_000,
  caller: 2_000,
  example: 4_000,
  removed: 3_000,
  /** Existing test files read to find those that use the target. */
  examplesRead: 100,
};

export const stemOf = (file: string): string => posix.basename(file).replace(/\.[^.]+$/, '');

const mentions = (text: string, names: readonly string[]): boolean =>
  names.some((n) => new RegExp(`\\b${n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`).test(text));

export interface Example {
  file: string;
  text: string;
}

/**
 * Existing tests to show as examples of imports and style: those that use the target (by its
 * module name or a symbol) first, then those whose name holds the target's, then the rest, each
 * group in path order so the prompt is the same on every machine.
 */
export async function pickExamples(
  root: string,
  existingTests: readonly string[],
  target: string,
  symbols: readonly string[],
  count: number,
): Promise<Example[]> {
  if (count === 0) return [];
  const stem = stemOf(target);
  const named = (f: string): boolean => posix.basename(f).includes(stem);
  const ordered = [...existingTests].sort(
    (a, b) => Number(named(b)) - Number(named(a)) || (a < b ? -1 : a > b ? 1 : 0),
  );
  const scored: Array<Example & { score: number; order: number }> = [];
  for (const [order, file] of ordered.slice(0, BOUNDS.examplesRead).entries()) {
    const text = await readProjectFile(root, file);
    if (text === undefined || !text.trim()) continue;
    const score = (mentions(text, [stem, ...symbols]) ? 2 : 0) + (named(file) ? 1 : 0);
    scored.push({ file, text, score, order });
  }
  return scored
    .sort((a, b) => b.score - a.score || a.order - b.order)
    .slice(0, count)
    .map(({ file, text }) => ({ file, text }));
}

export function exampleSlices(examples: readonly Example[]): SourceSlice[] {
  return examples.map((e) => head(e.file, e.text, BOUNDS.example, 'an existing test of the project'));
}

/** The callers' lines that use the target, within the bounds, for at most `count` callers. */
export async function callerSlices(
  root: string,
  callers: readonly string[],
  target: string,
  symbols: readonly string[],
  count: number,
): Promise<SourceSlice[]> {
  const names = symbols.length ? symbols.map((s) => s.split(/[.:]+/).pop()!) : [stemOf(target)];
  const out: SourceSlice[] = [];
  let used = 0;
  for (const file of [...callers].sort()) {
    if (used >= count) break;
    if (file === target) continue;
    const text = await readProjectFile(root, file);
    if (text === undefined) continue;
    const slices = usesOf(file, text, names, BOUNDS.caller);
    if (slices.length === 0) continue;
    out.push(...slices);
    used++;
  }
  return out;
}

const HEADERS = ['.h', '.hpp', '.hh', '.hxx'];

/** A C/C++ target's header: the same name beside it or under include/. */
export async function headerOf(
  root: string,
  target: string,
): Promise<{ file: string; text: string } | undefined> {
  const stem = stemOf(target);
  const dir = posix.dirname(target);
  const places = [dir, 'include', `include/${stem}`].map((d) => (d === '.' ? '' : `${d}/`));
  for (const place of places)
    for (const ext of HEADERS) {
      const file = `${place}${stem}${ext}`;
      if (file === target) continue;
      const text = await readProjectFile(root, file);
      if (text !== undefined) return { file, text };
    }
  return undefined;
}
