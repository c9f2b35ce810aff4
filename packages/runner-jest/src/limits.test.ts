import { describe, expect, it } from 'vitest';
import { BLOCKING_DEFAULT_MS, fileGapLimit, stoppedMessage, testLimit } from './limits.js';

describe('per-test limits', () => {
  it('by default stops a blocking test at 30 s, above Jest’s own timeout', () => {
    expect(testLimit({})).toMatchObject({
      ms: BLOCKING_DEFAULT_MS,
      why: expect.stringMatching(/blocks its worker/),
    });
    expect(testLimit({ jestTimeout: 5000 }).ms).toBe(30_000);
  });

  it('follows a longer timeout from the config or the test file, with a grace for Jest’s timer', () => {
    expect(testLimit({ jestTimeout: 60_000 }).ms).toBe(90_000);
    expect(testLimit({ jestTimeout: 5000, declared: 40_000 }).ms).toBe(60_000);
  });

  it('takes the option over the config, without the 30 s floor', () => {
    expect(testLimit({ option: 1000, jestTimeout: 60_000 }).ms).toBe(3000);
    expect(testLimit({ option: 1000, declared: 8000 }).ms).toBe(12_000);
  });

  it('limits a re-run by the duration measured before, never under Jest’s timeout and never over the full run’s', () => {
    expect(testLimit({ lastDurationMs: 4 }).ms).toBe(7500);
    expect(testLimit({ lastDurationMs: 1200 }).ms).toBe(12_000);
    expect(testLimit({ lastDurationMs: 20_000 }).ms).toBe(30_000);
    expect(testLimit({ lastDurationMs: 1200 }).why).toMatch(/10 times the 1200 ms/);
  });

  it('gives a re-run of a test a limit stopped before, never measured, its own timeout and a grace', () => {
    expect(testLimit({ stoppedBefore: true })).toMatchObject({
      ms: 7500,
      why: expect.stringMatching(/ran past its limit before gets its timeout of 5000 ms/),
    });
    expect(testLimit({ jestTimeout: 20_000, stoppedBefore: true }).ms).toBe(30_000);
    // a test whose own timeout is past the blocking limit keeps that
    expect(testLimit({ jestTimeout: 60_000, stoppedBefore: true }).ms).toBe(90_000);
  });

  it('gives the time outside any test at least a minute', () => {
    expect(fileGapLimit({})).toBe(60_000);
    expect(fileGapLimit({ jestTimeout: 60_000 })).toBe(180_000);
  });

  it('names the option to raise', () => {
    expect(stoppedMessage(testLimit({}))).toMatch(/raise the runner option "testTimeoutMs"/);
  });
});
