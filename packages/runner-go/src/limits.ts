import type { ResolvedGoOptions } from './options.js';

/** Durations of top-level tests this runner instance measured, for the limits of re-runs. */
export class DurationMemory {
  private readonly ms = new Map<string, number>();

  record(entries: Iterable<[id: string, ms: number]>): void {
    for (const [id, ms] of entries) this.ms.set(id, ms);
  }

  get(id: string): number | undefined {
    return this.ms.get(id);
  }
}

/**
 * The time limit of a top-level test: `testTimeoutMs` in a full run; in a re-run of selected tests
 * 5x its measured duration, at least `rerunTimeoutMs`, at most `testTimeoutMs` (0: no limit).
 */
export function testLimit(
  options: ResolvedGoOptions,
  selected: boolean,
  memory: DurationMemory,
): (id: string) => number {
  return (id) => {
    const max = options.testTimeoutMs;
    if (max === 0 || !selected) return max;
    const measured = memory.get(id);
    const limit =
      measured === undefined ? options.rerunTimeoutMs : Math.max(options.rerunTimeoutMs, measured * 5);
    return Math.min(max, limit);
  };
}
