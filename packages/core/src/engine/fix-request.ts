import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Failure, Scope, ScopeInput } from '../api/contracts/failure.js';
import type { AttemptSummary, EditPolicy, FixRequest, SourceSlice } from '../api/contracts/fix.js';
import { ScopeSchema } from '../api/contracts/failure.js';
import { rankedSlices } from '../analysis/budget.js';

export const EVIDENCE_LINES = 200;
const CHARS_PER_TOKEN = 4;
const WINDOW = 40;

/** The last `max` lines of a text, with a marker when lines were dropped. */
export function trimEvidence(text: string, max = EVIDENCE_LINES): string {
  const lines = text.split('\n');
  if (lines.length <= max) return text;
  return [`[... ${lines.length - max} earlier lines omitted ...]`, ...lines.slice(-max)].join('\n');
}

const escapeRe = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const MAX_BLOCK = 400;

/** Decorator, attribute and comment lines right above a definition (0-based index `at`). */
function leadingDecorations(lines: readonly string[], at: number): number {
  let n = 0;
  while (at - n - 1 >= 0 && /^\s*(@|#\[|\/\/|\/\*|\*|template\s*<)/.test(lines[at - n - 1]!)) n++;
  return n;
}

/**
 * 1-based last line of the block a definition opens at 0-based `at`: by indentation when the
 * header ends with a colon (Python), else by matching braces (C, C++, JS, TS). Strings and
 * comments are not parsed, which is good enough to slice a function out for a prompt.
 */
function blockEnd(lines: readonly string[], at: number): number {
  const limit = Math.min(lines.length, at + MAX_BLOCK);
  const indent = (l: string): number => l.length - l.trimStart().length;
  let header = at;
  while (header < limit - 1 && !/[:{;]\s*(#.*|\/\/.*)?$/.test(lines[header]!)) header++;
  if (/:\s*(#.*)?$/.test(lines[header]!)) {
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
    if (!opened && i > header) break;
  }
  return Math.min(lines.length, at + 1 + WINDOW * 2);
}

/** 1-based line ranges around the definitions of `symbols` (and a location line) in `text`. */
function interestingRanges(text: string, symbols: readonly string[], line?: number): Array<[number, number]> {
  const lines = text.split('\n');
  const ranges: Array<[number, number]> = [];
  for (const symbol of symbols) {
    const name = escapeRe(symbol.split(/[.:]+/).pop() ?? symbol);
    const def = new RegExp(
      `\\b(def|class|function|fn|struct|async\\s+def)\\s+${name}\\b|\\b${name}\\s*(=\\s*(async\\s*)?(\\(|function)|\\([^;]*\\)\\s*(const\\s*)?\\{?\\s*$)|\\bTEST(_F|_P)?\\s*\\([^)]*\\b${name}\\b`,
    );
    const at = lines.findIndex((l) => def.test(l));
    if (at >= 0) ranges.push([Math.max(1, at + 1 - leadingDecorations(lines, at)), blockEnd(lines, at)]);
  }
  if (line) ranges.push([Math.max(1, line - WINDOW), Math.min(lines.length, line + WINDOW)]);
  ranges.sort((a, b) => a[0] - b[0]);
  const merged: Array<[number, number]> = [];
  for (const r of ranges) {
    const last = merged[merged.length - 1];
    if (last && r[0] <= last[1] + 1) last[1] = Math.max(last[1], r[1]);
    else merged.push([...r]);
  }
  return merged;
}

/**
 * Source slices of the scope within a token budget: whole files when they fit, otherwise windows
 * around the symbols' definitions and the failure's location. Files nearest the failure first.
 * Test files outside the editable scope are included too (read-only context).
 */
export async function sourceSlices(
  root: string,
  failure: Failure,
  scope: ScopeInput,
  tokenBudget: number,
): Promise<SourceSlice[]> {
  const parsed = ScopeSchema.parse(scope);
  // a ranked scope is sent function by function in rank order, whatever the file
  if (parsed.entries.some((e) => e.score !== undefined))
    return rankedSlices(root, failure, parsed, tokenBudget * CHARS_PER_TOKEN);
  const entries = parsed.entries;
  let budget = tokenBudget * CHARS_PER_TOKEN;
  const slices: SourceSlice[] = [];
  for (const entry of entries) {
    if (budget <= 200) break;
    let text: string;
    try {
      text = await readFile(join(root, entry.file), 'utf8');
    } catch {
      continue;
    }
    if (text.includes('\0')) continue;
    const reason = entry.reasons.join('; ');
    const total = text.split('\n').length;
    if (text.length <= budget && text.length <= 16_000) {
      slices.push({ file: entry.file, startLine: 1, endLine: Math.max(1, total), text, reason });
      budget -= text.length;
      continue;
    }
    const line = failure.location?.file === entry.file ? failure.location.line : undefined;
    const ranges = interestingRanges(text, entry.symbols, line);
    if (ranges.length === 0) ranges.push([1, Math.min(total, WINDOW * 2)]);
    const lines = text.split('\n');
    for (const [start, end] of ranges) {
      let chunk = lines.slice(start - 1, end).join('\n');
      if (chunk.length > budget) chunk = chunk.slice(0, budget);
      const endLine = start + chunk.split('\n').length - 1;
      slices.push({ file: entry.file, startLine: start, endLine, text: chunk, reason });
      budget -= chunk.length;
      if (budget <= 200) break;
    }
  }
  return slices;
}

export interface BuildRequestInput {
  project: { name: string; root: string; language?: string };
  failure: Failure;
  scope: Scope;
  rawScope: ScopeInput;
  history: AttemptSummary[];
  policy: EditPolicy;
  attempt: number;
  maxAttempts: number;
  tokenBudget: number;
}

export async function buildFixRequest(input: BuildRequestInput): Promise<FixRequest> {
  return {
    project: input.project,
    failure: { ...input.failure, evidence: trimEvidence(input.failure.evidence) },
    scope: input.scope,
    sources: await sourceSlices(input.project.root, input.failure, input.rawScope, input.tokenBudget),
    // a copy: the loop's history grows after this request was sent
    history: [...input.history],
    policy: input.policy,
    attempt: input.attempt,
    maxAttempts: input.maxAttempts,
    tokenBudget: input.tokenBudget,
  };
}
