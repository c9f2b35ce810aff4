import { describe, expect, it } from 'vitest';
import { generateProposal, runProposalFuzz } from '../../harness/proposal-fuzz.mjs';
import { prng } from '../../harness/tree.mjs';
import { requireIsolation } from '../../../src/safety/workspace/isolation.test-support.js';

// A reduced, deterministic run of bench/proposal-fuzz.mjs, which runs 10,000 proposals and more
// from fresh seeds. The harness imports the built engine (dist), which the test target builds
// first. SUTURE_FUZZ_SEED and SUTURE_FUZZ_PROPOSALS replay a bench run's seed at its size.
const PROPOSALS = Number(process.env.SUTURE_FUZZ_PROPOSALS ?? 250);
const SEED = Number(process.env.SUTURE_FUZZ_SEED ?? 20261203);

describe('hostile proposals fed to the gate', () => {
  it('generates the same proposals from the same seed', () => {
    const a = prng(99);
    const b = prng(99);
    const first = Array.from({ length: 50 }, () => JSON.stringify(generateProposal(a, '/base')));
    expect(Array.from({ length: 50 }, () => JSON.stringify(generateProposal(b, '/base')))).toEqual(first);
  });

  it(`never writes outside the scope and gives every refusal a reason (${PROPOSALS} proposals, seed ${SEED})`, async () => {
    console.log(`proposal fuzz: seed ${SEED} (replay with SUTURE_FUZZ_SEED=${SEED})`);
    const s = await runProposalFuzz({ proposals: PROPOSALS, seed: SEED });
    expect(s.violations, `seed ${SEED}`).toEqual([]);
    expect(s.writesOutsideScope).toBe(0);
    expect(s.refusalsWithoutReason).toBe(0);
    expect(s.treeNotRestored).toBe(0);
    expect(s.internalErrors).toBe(0);
    expect(s.proposals).toBeGreaterThanOrEqual(PROPOSALS);
    // The fuzz reaches both sides of the gate: refusals and patches that were applied and re-run.
    expect(s.verdicts.refused).toBeGreaterThan(PROPOSALS / 4);
    expect(s.applied).toBeGreaterThan(0);
    expect(s.healed).toBeGreaterThan(0);
  }, 600_000);

  // bench/proposal-fuzz.mjs [n] [seed] overlay runs thousands; each gate here opens a workspace.
  const IN_VIEW = Number(process.env.SUTURE_FUZZ_PROPOSALS_WORKSPACE ?? 75);
  it(`validates in the overlay without writing the repository before the end (${IN_VIEW} proposals, seed ${SEED})`, async (t) => {
    await requireIsolation(t, { overlay: true });
    const s = await runProposalFuzz({ proposals: IN_VIEW, seed: SEED, workspace: 'overlay' });
    expect(s.violations, `seed ${SEED}`).toEqual([]);
    expect(s.writtenBeforeEnd).toBe(0);
    expect(s.writesOutsideScope).toBe(0);
    expect(s.refusalsWithoutReason).toBe(0);
    expect(s.treeNotRestored).toBe(0);
    expect(s.internalErrors).toBe(0);
    expect(s.applied).toBeGreaterThan(0);
  }, 900_000);
});
