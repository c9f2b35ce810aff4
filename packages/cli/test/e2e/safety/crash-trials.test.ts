import { describe, expect, it } from 'vitest';
import { classify, REQUIRED_PHASES, runCrashTrials } from '../../harness/crash-trials.mjs';

// A reduced series of the kill trials of bench/crash-trials.mjs (which runs hundreds). The seed is
// printed and can be set with SUTURE_CRASH_SEED to replay a failing series.
const TRIALS = Number(process.env.SUTURE_CRASH_TRIALS ?? 12);
const SEED = Number(process.env.SUTURE_CRASH_SEED ?? Date.now() % 1_000_000);

describe('SIGKILL at random moments of `suture run --fix`, then `suture recover`', () => {
  it('classifies where a kill landed from the logged points', () => {
    expect(classify([])).toBe('before the journal');
    expect(classify(['gate:start', 'lock:created', 'lock:acquired', 'atomic:renaming'])).toBe(
      'before the journal',
    );
    expect(
      classify([
        'journal:created',
        'run:initial:start',
        'run:initial:end',
        'journal:backup',
        'atomic:renaming',
      ]),
    ).toBe('mid-journal');
    expect(classify(['journal:manifest', 'atomic:renamed', 'write:begin', 'atomic:renaming'])).toBe(
      'mid-write',
    );
    expect(classify(['write:end', 'run:retry:start'])).toBe('during the re-run');
    expect(
      classify([
        'run:regression:start',
        'run:regression:end',
        'restore:putback',
        'journal:manifest',
        'write:begin',
      ]),
    ).toBe('during restore');
    expect(
      classify([
        'restore:putback',
        'restore:begin',
        'restore:file',
        'restore:done',
        'restore:done',
        'run:regression:start',
      ]),
    ).toBe('during the regression run');
    expect(classify(['restore:done', 'journal:closing'])).toBe('closing the journal');
    expect(classify(['journal:closing', 'journal:closed'])).toBe('after the commit');
  });

  it(`leaves the tree byte-identical to the start or to the healed state, never in between (${TRIALS} trials, seed ${SEED})`, async () => {
    console.log(`crash trials: seed ${SEED} (replay with SUTURE_CRASH_SEED=${SEED})`);
    const summary = await runCrashTrials({ trials: TRIALS, seed: SEED });
    const failures = summary.failedTrials.map(
      (t: { index: number; phase: string; plan: unknown; problems: string[] }) =>
        `trial ${t.index} (${t.phase}, plan ${JSON.stringify(t.plan)}, seed ${SEED}): ${t.problems.join('; ')}`,
    );
    expect(failures).toEqual([]);
    expect(summary.inBetween).toBe(0);
    expect(summary.conflicts).toBe(0);
    expect(summary.identicalToStart + summary.identicalToHealed).toBe(TRIALS);
    expect(summary.killed).toBeGreaterThan(TRIALS / 2);
    for (const phase of REQUIRED_PHASES)
      expect(summary.hits[phase], `no kill landed ${phase} (seed ${SEED})`).toBeGreaterThan(0);
  }, 900_000);
});
