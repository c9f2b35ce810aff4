import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { FixProposal } from '../api/contracts/fix.js';
import type { FailureReport } from '../api/contracts/report.js';
import { isFixerUnavailable } from '../api/fixer-unavailable.js';
import { RunSpend } from '../engine/spend.js';
import { projectTotals } from '../report/totals.js';
import { sampleFixerContext, sampleFixRequest } from '../testing/sample-fix-request.js';
import { CassetteMissError } from './cassette.js';
import { startChatServer, type ChatServer } from './chat-server.test-support.js';
import { teamFixer } from './llm-test-fixer.test-support.js';

let server: ChatServer;
let dir: string;
beforeAll(async () => {
  server = await startChatServer();
});
afterAll(() => server.close());
afterEach(async () => {
  server.requests.length = 0;
  if (dir) await rm(dir, { recursive: true, force: true });
});

const answer = (replace: string): Record<string, unknown> => ({
  verdict: 'edits',
  rationale: `try ${replace}`,
  edits: [{ file: 'shop/pricing.py', search: 'if units > 10:', replace, content: null }],
  bug: null,
  diagnosis: null,
});
// $10 in and $30 out per million tokens: the server's 1000 in and 100 out cost $0.013 a call
const priced = { prices: { 'team-model': { input: 10, output: 30 } } };
const other = sampleFixRequest({ failure: { ...sampleFixRequest().failure, id: 'shop:f2', title: 'other' } });

async function failure(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('the proposal did not fail');
}

/** A failure group whose one attempt carried the proposal's usage, as the engine reports it. */
const reported = (proposal: FixProposal): FailureReport =>
  ({ outcome: 'healed', attempts: [{ usage: proposal.usage }] }) as unknown as FailureReport;

describe('usage of a replayed answer', () => {
  it('costs nothing and counts no call or token against the budget, and says what the tape recorded', async () => {
    dir = await mkdtemp(join(tmpdir(), 'suture-cassette-usage-'));
    server.script({ kind: 'call', answer: answer('if units >= 10:') }, { kind: 'call', answer: answer('x') });
    const recorder = teamFixer(server, { ...priced, cassette: { path: 'tape', mode: 'record' } }, dir);
    const live = [
      await recorder.propose(sampleFixRequest(), sampleFixerContext()),
      await recorder.propose(other, sampleFixerContext()),
    ] as FixProposal[];
    expect(live[0]!.usage).toMatchObject({ calls: 1, inputTokens: 1000, outputTokens: 100, costUsd: 0.013 });

    // a budget that one live call would spend: replays are not charged, so both go through
    const spend = new RunSpend({ maxCostUsd: 0.01, maxCalls: 1 });
    const player = teamFixer(server, { ...priced, cassette: { path: 'tape', mode: 'replay' } }, dir);
    const replayed: FixProposal[] = [];
    for (const request of [sampleFixRequest(), other]) {
      const proposal = (await player.propose(request, sampleFixerContext({ spend }))) as FixProposal;
      spend.record(proposal.usage);
      replayed.push(proposal);
    }
    expect(server.requests).toHaveLength(2);
    expect(spend.totals).toEqual({ calls: 0, costUsd: 0 });
    expect(spend.refusal()).toBeUndefined();
    expect(replayed[0]!.usage).toEqual({
      model: 'team-model',
      inputTokens: 0,
      outputTokens: 0,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
      costUsd: 0,
      calls: 0,
      durationMs: 0,
      replayed: {
        answers: 1,
        calls: 1,
        inputTokens: 1000,
        outputTokens: 100,
        cacheReadTokens: 0,
        cacheWriteTokens: 0,
        costUsd: 0.013,
      },
    });
    const { usage: _, ...rest } = replayed[0]!;
    expect({ ...live[0]!, usage: undefined }).toEqual({ ...rest, usage: undefined });

    const totals = projectTotals(undefined, replayed.map(reported));
    expect(totals).toMatchObject({ llmCalls: 0, inputTokens: 0, costUsd: 0, replayedAnswers: 2 });
    expect(projectTotals(undefined, live.map(reported))).toMatchObject({ llmCalls: 2, replayedAnswers: 0 });
  });

  it('a request the tape lacks is no failed call: misses never open the circuit breaker', async () => {
    dir = await mkdtemp(join(tmpdir(), 'suture-cassette-usage-'));
    const player = teamFixer(server, { cassette: { path: 'tape', mode: 'replay' }, circuitBreaker: 2 }, dir);
    for (let miss = 0; miss < 3; miss++) {
      const error = await failure(player.propose(sampleFixRequest(), sampleFixerContext()));
      expect(error).toBeInstanceOf(CassetteMissError);
      expect(isFixerUnavailable(error)).toBe(false);
      expect(error.message).toMatch(/^the cassette .*tape has no answer for this request/);
    }
    expect(server.requests).toHaveLength(0);
  });
});
