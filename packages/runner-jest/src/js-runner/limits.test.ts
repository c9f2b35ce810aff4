import { describe, expect, it } from 'vitest';
import { BLOCKING_DEFAULT_MS, fileGapLimit, testLimit, type TimeoutTool } from './limits.js';

const VITEST: TimeoutTool = { name: 'Vitest', defaultTimeoutMs: 5_000 };
const SLOW: TimeoutTool = { name: 'Slowtool', defaultTimeoutMs: 40_000 };

describe('the limits both JavaScript runners share', () => {
  it("names the tool it is given in every reason, never Jest's", () => {
    const reasons = [
      testLimit({}, VITEST).why,
      testLimit({ option: 1000 }, VITEST).why,
      testLimit({ stoppedBefore: true }, VITEST).why,
    ];
    for (const why of reasons) {
      expect(why).toMatch(/Vitest's own t/);
      expect(why).not.toMatch(/Jest/);
    }
  });

  it("starts from the tool's own default timeout when the run resolved none", () => {
    expect(testLimit({}, VITEST).ms).toBe(BLOCKING_DEFAULT_MS);
    expect(testLimit({}, SLOW)).toMatchObject({
      ms: 60_000,
      why: expect.stringMatching(/timeout of 40000 ms/),
    });
    expect(testLimit({ toolTimeout: 1000 }, SLOW).ms).toBe(BLOCKING_DEFAULT_MS);
  });

  it("takes the file's declared timeout only when it is longer than the tool's", () => {
    expect(testLimit({ toolTimeout: 60_000, declared: 1000 }, VITEST).ms).toBe(90_000);
    expect(testLimit({ toolTimeout: 1000, declared: 60_000 }, VITEST).ms).toBe(90_000);
  });

  it('gives a file twice the full limit of a test, at least a minute, whatever the test took before', () => {
    expect(fileGapLimit({}, VITEST)).toBe(60_000);
    expect(fileGapLimit({ option: 40_000, lastDurationMs: 1 }, VITEST)).toBe(120_000);
  });
});
