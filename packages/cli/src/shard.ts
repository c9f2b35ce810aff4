import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { UsageError } from './exit.js';
import { planShardParts } from './shard-files.js';

export interface Shard {
  /** 1-based. */
  index: number;
  count: number;
}

/** Parses `--shard i/n` (1 <= i <= n), as Jest and Playwright spell it. */
export function parseShard(text: string): Shard {
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  const index = Number(m?.[1]);
  const count = Number(m?.[2]);
  if (!m || count < 1 || index < 1 || index > count)
    throw new UsageError(`--shard expects i/n with 1 <= i <= n (e.g. --shard 2/4), got "${text}"`);
  return { index, count };
}

/**
 * Splits projects into `count` shards: the longest first onto the least loaded shard, ties broken
 * by name and then by shard number, so every machine given the same names and durations computes
 * the same split. A project without a known duration weighs the mean of the known ones (1 when
 * none is known), so a split without history is a balanced split by count.
 */
export function planShards(
  names: readonly string[],
  durations: ReadonlyMap<string, number>,
  count: number,
): string[][] {
  const whole = names.map((name) => ({ name, splittable: false }));
  return planShardParts(whole, durations, new Map(), count).map((parts) => parts.map((p) => p.project));
}

export interface ShardHistory {
  durations: Map<string, number>;
  /** Per project, what each of its test files took (the sum of its tests), from the same run. */
  files: Map<string, Map<string, number>>;
  /** The report.json the durations came from, when there was one. */
  source?: string;
}

/** A shard's run folder: its report covers part of the projects, so it is no history for the next split. */
const SHARD_RUN = /-shard\d+of\d+$/;

/** The run id of a shard's run, which later splits leave out of their history. */
export function shardRunId(base: string, shard: Shard): string {
  return `${base}-shard${shard.index}of${shard.count}`;
}

interface ReportedProject {
  name?: unknown;
  durationMs?: unknown;
  rounds?: Array<{ kind?: unknown; tests?: Array<{ id?: unknown; durationMs?: unknown }> }>;
}

/** A test id's file: `tests/test_cart.py::test_total` and `__tests__/cart.test.js::cart adds` name theirs first. */
export function testFileOf(id: string): string | undefined {
  const at = id.indexOf('::');
  return at > 0 ? id.slice(0, at) : undefined;
}

function fileDurations(project: ReportedProject): Map<string, number> {
  const out = new Map<string, number>();
  const initial = project.rounds?.find((r) => r.kind === 'initial');
  for (const t of initial?.tests ?? []) {
    const file = typeof t.id === 'string' ? testFileOf(t.id) : undefined;
    if (file) out.set(file, (out.get(file) ?? 0) + (typeof t.durationMs === 'number' ? t.durationMs : 0));
  }
  return out;
}

/**
 * Project durations of the latest earlier run (not a shard's) that has a report.json in the runs
 * folder, and the durations of each project's test files in it. CI jobs that restore the same
 * runs folder (or none) therefore split alike.
 */
export async function shardHistory(runsDir: string): Promise<ShardHistory> {
  const names = (await readdir(runsDir).catch(() => [] as string[])).filter((n) => !SHARD_RUN.test(n));
  const dated = await Promise.all(
    names.map(async (name) => ({
      name,
      mtime: (await stat(join(runsDir, name)).catch(() => undefined))?.mtimeMs ?? 0,
    })),
  );
  const runs = dated.sort((a, b) => b.mtime - a.mtime || b.name.localeCompare(a.name)).map((r) => r.name);
  for (const run of runs) {
    const file = join(runsDir, run, 'report.json');
    const text = await readFile(file, 'utf8').catch(() => undefined);
    if (!text) continue;
    try {
      const report = JSON.parse(text) as { projects?: ReportedProject[] };
      const durations = new Map<string, number>();
      const files = new Map<string, Map<string, number>>();
      for (const p of report.projects ?? [])
        if (typeof p.name === 'string' && typeof p.durationMs === 'number') {
          durations.set(p.name, p.durationMs);
          files.set(p.name, fileDurations(p));
        }
      if (durations.size) return { durations, files, source: file };
    } catch {
      // an unreadable old report is no history; the next older one may be
    }
  }
  return { durations: new Map(), files: new Map() };
}
