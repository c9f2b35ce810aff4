import { describe, expect, it } from 'vitest';
import { needles, runSecretsScenario, secretKinds } from '../../harness/secrets.mjs';

describe('secrets planted in the environment, test output, evidence and source', () => {
  it('plants at least twenty kinds, each a value the search can find', () => {
    const kinds = secretKinds();
    expect(kinds.length).toBeGreaterThanOrEqual(20);
    for (const { needle } of needles(kinds)) expect(needle.length).toBeGreaterThanOrEqual(12);
  });

  it('never appear in anything suture wrote or sent to a fixer', async () => {
    const result = await runSecretsScenario();
    // The scenario really ran: the fixer got prompts, a heal happened, and there was a lot to search.
    expect(result.prompts).toBeGreaterThan(0);
    expect(result.healed).toBe(1);
    expect(result.sources).toBeGreaterThan(8);
    expect(result.leaks).toEqual([]);
  }, 300_000);
});
