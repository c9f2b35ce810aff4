import { describe, expect, it } from 'vitest';
import {
  runBigOutputScenario,
  runKilledDuringBuildScenario,
  runKilledDuringTestScenario,
  runRunawayScenario,
} from '../../harness/processes.mjs';

describe('the processes of a run', () => {
  it('kills the whole group at the timeout, helpers that ignore SIGTERM and outlive their parent included, and leaves nothing behind', async () => {
    const r = await runRunawayScenario({ timeoutMs: 3000 });
    expect(r.stderr).toBe('');
    expect(r.testStatus).toBe('timeout');
    expect(r.exitCode).toBe(1);
    // the test, its direct helper and the helper whose parent exited
    expect(r.pids).toHaveLength(3);
    expect(r.alive).toEqual([]);
    expect(r.leftover).toEqual([]);
  }, 120_000);

  it('stops, on `suture recover`, the test a SIGKILLed run left running in its own process group', async () => {
    const r = await runKilledDuringTestScenario();
    expect(r.pid).toBeGreaterThan(0);
    // SIGKILL cannot be caught: the test outlives suture until recover stops it
    expect(r.outlived).toBe(true);
    expect(r.recoverCode).toBe(0);
    expect(r.recoverOut).toMatch(/stopped process group \d+ left running by the interrupted run/);
    expect(r.stillAlive).toBe(false);
    expect(r.leftover).toEqual([]);
  }, 120_000);

  it("stops, on `suture recover`, a real Ninja build's compile jobs that a SIGKILLed run left running", async () => {
    const r = await runKilledDuringBuildScenario();
    expect(r.jobs.length).toBeGreaterThanOrEqual(2);
    // the compile jobs ignore SIGTERM and outlive suture until recover stops their group
    expect(r.outlived.length).toBeGreaterThanOrEqual(1);
    expect(r.recoverCode).toBe(0);
    expect(r.recoverOut).toMatch(/stopped process group \d+ left running by the interrupted run/);
    expect(r.stillAlive).toEqual([]);
    expect(r.leftover).toEqual([]);
  }, 180_000);

  // bench/big-output.mjs prints 1 GB; 100 MB here keeps the suite quick.
  for (const runner of ['script', 'pytest'] as const) {
    it(`keeps suture's memory bounded while a ${runner} test prints 100 MB, and still reports the tail`, async () => {
      const r = await runBigOutputScenario({ bytes: 100 * 1024 * 1024, runner });
      expect(r.exitCode, r.stderr).toBe(1);
      expect(r.tailKept).toBe(true);
      // Node itself takes about 60-100 MB; holding the output would take more than 100 MB on top.
      expect(r.peakRssMb).toBeGreaterThan(0);
      expect(r.peakRssMb).toBeLessThan(200);
    }, 300_000);
  }
});
