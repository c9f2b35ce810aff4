import type { CoverageCounts, FileLines } from '../../../api/contracts/autorun.js';
import { emptyFile, type CoverageData } from './probe.js';

/** Everything covered by either: the union of two measurements of the same target. */
export function mergeCoverage(a: CoverageData, b: CoverageData): CoverageData {
  const out: CoverageData = new Map();
  for (const data of [a, b])
    for (const [file, cov] of data) {
      const into = out.get(file) ?? emptyFile();
      for (const [line, hits] of cov.lines) into.lines.set(line, (into.lines.get(line) ?? 0) + hits);
      for (const [key, hits] of cov.branches) into.branches.set(key, (into.branches.get(key) ?? 0) + hits);
      out.set(file, into);
    }
  return out;
}

export interface CoverageGain {
  lines: FileLines[];
  branches: number;
}

/** Lines and branches `next` runs that `base` does not. */
export function coverageGain(base: CoverageData, next: CoverageData): CoverageGain {
  const lines: FileLines[] = [];
  let branches = 0;
  for (const [file, cov] of next) {
    const had = base.get(file);
    const newLines = [...cov.lines]
      .filter(([line, hits]) => hits > 0 && !((had?.lines.get(line) ?? 0) > 0))
      .map(([line]) => line)
      .sort((x, y) => x - y);
    if (newLines.length) lines.push({ file, lines: newLines });
    for (const [key, hits] of cov.branches) if (hits > 0 && !((had?.branches.get(key) ?? 0) > 0)) branches++;
  }
  return { lines, branches };
}

export const gainIsEmpty = (gain: CoverageGain): boolean => gain.lines.length === 0 && gain.branches === 0;

export function coverageCounts(data: CoverageData): CoverageCounts {
  const counts: CoverageCounts = { lines: { covered: 0, total: 0 }, branches: { covered: 0, total: 0 } };
  for (const cov of data.values()) {
    for (const hits of cov.lines.values()) {
      counts.lines.total++;
      if (hits > 0) counts.lines.covered++;
    }
    for (const hits of cov.branches.values()) {
      counts.branches.total++;
      if (hits > 0) counts.branches.covered++;
    }
  }
  return counts;
}

/** The target's executable lines that nothing runs, per file. */
export function uncoveredLines(data: CoverageData): FileLines[] {
  const out: FileLines[] = [];
  for (const [file, cov] of [...data].sort(([a], [b]) => a.localeCompare(b))) {
    const lines = [...cov.lines]
      .filter(([, hits]) => hits === 0)
      .map(([line]) => line)
      .sort((x, y) => x - y);
    if (lines.length) out.push({ file, lines });
  }
  return out;
}

/** `3-5, 9`: lines as ranges, for prompts and reports. */
export function lineRanges(lines: readonly number[]): string {
  const parts: string[] = [];
  let start: number | undefined;
  let prev: number | undefined;
  for (const line of [...lines, Number.NaN]) {
    if (start !== undefined && prev !== undefined && line === prev + 1) {
      prev = line;
      continue;
    }
    if (start !== undefined && prev !== undefined)
      parts.push(start === prev ? `${start}` : `${start}-${prev}`);
    start = line;
    prev = line;
  }
  return parts.join(', ');
}
