import type { Runner } from '@suture/core';

/**
 * One shard's part of a project: the whole project, or (for a project split by test file) the
 * files it runs. The part that also runs what no other part names (`rest`) runs the whole suite
 * less the other parts' files, so a test file newer than the durations is still run, once.
 */
export interface ProjectPart {
  project: string;
  /** Test files this part runs; undefined: the whole project. */
  files?: string[];
  /** Run the whole suite less these files (the other parts' files) instead of `files`. */
  rest?: { exclude: string[] };
}

export interface SplitInput {
  name: string;
  /** Its runner can run a selection of test files (`supportsFileSelection`). */
  splittable: boolean;
}

interface Item {
  project: string;
  file?: string;
  weight: number;
}

/**
 * Splits projects into `count` shards, the longest first onto the least loaded shard. A project
 * longer than one shard's share whose runner selects test files, and whose test files the history
 * knows (two or more), goes as its files instead, each weighing its share of the project's time.
 * Ties break by name and shard number, so every machine given the same history splits alike.
 */
export function planShardParts(
  projects: readonly SplitInput[],
  durations: ReadonlyMap<string, number>,
  files: ReadonlyMap<string, ReadonlyMap<string, number>>,
  count: number,
): ProjectPart[][] {
  const known = projects.map((p) => durations.get(p.name)).filter((d): d is number => d !== undefined);
  const fallback = known.length ? known.reduce((a, b) => a + b, 0) / known.length : 1;
  const weight = (name: string): number => Math.max(1, durations.get(name) ?? fallback);
  const share = projects.reduce((n, p) => n + weight(p.name), 0) / count;
  const items: Item[] = [];
  for (const p of projects) {
    const own = files.get(p.name);
    if (count > 1 && p.splittable && weight(p.name) > share && own && own.size >= 2) {
      const total = [...own.values()].reduce((a, b) => a + b, 0);
      for (const [file, ms] of own)
        items.push({
          project: p.name,
          file,
          weight: Math.max(1, total > 0 ? (weight(p.name) * ms) / total : weight(p.name) / own.size),
        });
    } else items.push({ project: p.name, weight: weight(p.name) });
  }
  const key = (i: Item): string => `${i.project}\0${i.file ?? ''}`;
  items.sort((a, b) => b.weight - a.weight || key(a).localeCompare(key(b)));
  const shards = Array.from({ length: count }, () => ({ load: 0, items: [] as Item[] }));
  for (const item of items) {
    let best = shards[0]!;
    for (const s of shards) if (s.load < best.load) best = s;
    best.load += item.weight;
    best.items.push(item);
  }
  const parts = shards.map((s) => {
    const byProject = new Map<string, ProjectPart>();
    for (const i of s.items) {
      const part = byProject.get(i.project) ?? { project: i.project };
      if (i.file) part.files = [...(part.files ?? []), i.file].sort();
      byProject.set(i.project, part);
    }
    return { load: s.load, parts: [...byProject.values()] };
  });
  // of a split project's parts, the one in the least loaded shard (the first such) takes the rest
  for (const p of projects) {
    const holders = parts.filter((s) => s.parts.some((x) => x.project === p.name && x.files));
    if (holders.length === 0) continue;
    if (holders.length === 1) {
      // every file landed in one shard: that is the whole project
      delete holders[0]!.parts.find((x) => x.project === p.name)!.files;
      continue;
    }
    const rest = holders.reduce((a, b) => (b.load < a.load ? b : a));
    const others = holders
      .filter((h) => h !== rest)
      .flatMap((h) => h.parts.find((x) => x.project === p.name)!.files!);
    const part = rest.parts.find((x) => x.project === p.name)!;
    part.rest = { exclude: others.sort() };
  }
  return parts.map((s) => s.parts);
}

/** How a part reads in the log: `shop`, `shop (tests/test_a.py, tests/test_b.py)`, `shop (all but 2 files)`. */
export function partLabel(part: ProjectPart): string {
  if (!part.files) return part.project;
  if (part.rest)
    return `${part.project} (${part.files.length} test file(s) and any other but ${part.rest.exclude.length})`;
  return `${part.project} (${part.files.join(', ')})`;
}

/**
 * The project's runner for one part: a run of the whole suite becomes a run of the part's files
 * (or of the whole suite less the other parts' files); a selection (a fix's validation, a flaky
 * re-run) goes through unchanged.
 */
export function partRunner(runner: Runner, part: ProjectPart): Runner {
  if (!part.files) return runner;
  return {
    ...runner,
    run: (ctx) => {
      if (ctx.selection) return runner.run(ctx);
      return runner.run(
        part.rest ? { ...ctx, exclude: part.rest.exclude } : { ...ctx, selection: part.files },
      );
    },
  };
}
