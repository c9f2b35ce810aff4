import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { UsageError } from './exit.js';

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
  const known = names.map((n) => durations.get(n)).filter((d): d is number => d !== undefined);
  const fallback = known.length ? known.reduce((a, b) => a + b, 0) / known.length : 1;
  const weighted = names
    .map((name) => ({ name, weight: Math.max(1, durations.get(name) ?? fallback) }))
    .sort((a, b) => b.weight - a.weight || a.name.localeCompare(b.name));
  const shards = Array.from({ length: count }, () => ({ load: 0, names: [] as string[] }));
  for (const p of weighted) {
    let best = shards[0]!;
    for (const s of shards) if (s.load < best.load) best = s;
    best.load += p.weight;
    best.names.push(p.name);
  }
  return shards.map((s) => s.names);
}

export interface ShardHistory {
  durations: Map<string, number>;
  /** The report.json the durations came from, when there was one. */
  source?: string;
}

/** A shard's run folder: its report covers part of the projects, so it is no history for the next split. */
const SHARD_RUN = /-shard\d+of\d+$/;

/** The run id of a shard's run, which later splits leave out of their history. */
export function shardRunId(base: string, shard: Shard): string {
  return `${base}-shard${shard.index}of${shard.count}`;
}

/**
 * Project durations of the latest earlier run (not a shard's) that has a report.json in the runs
 * folder. CI jobs that restore the same runs folder (or none) therefore split alike.
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
      const report = JSON.parse(text) as { projects?: Array<{ name?: unknown; durationMs?: unknown }> };
      const durations = new Map<string, number>();
      for (const p of report.projects ?? [])
        if (typeof p.name === 'string' && typeof p.durationMs === 'number')
          durations.set(p.name, p.durationMs);
      if (durations.size) return { durations, source: file };
    } catch {
      // an unreadable old report is no history; the next older one may be
    }
  }
  return { durations: new Map() };
}
