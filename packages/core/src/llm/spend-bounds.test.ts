import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { isFixerUnavailable } from '../api/fixer-unavailable.js';
import type { SpendGuard } from '../api/spend.js';
import { sampleFixerContext, sampleFixRequest } from '../testing/sample-fix-request.js';
import { startChatServer, type ChatServer } from './chat-server.test-support.js';
import { LlmOptionsSchema, resolveLlmSettings } from './fixer-options.js';
import { llmFixer, type TransportReply } from './llm-fixer.js';
import { teamFixer } from './llm-test-fixer.test-support.js';
import { emptyUsage } from './pricing.js';

let server: ChatServer;
beforeAll(async () => {
  server = await startChatServer();
});
afterAll(() => server.close());
afterEach(() => {
  server.requests.length = 0;
});

const answer = {
  verdict: 'unfixable',
  rationale: 'r',
  edits: [],
  bug: null,
  diagnosis: 'cannot tell',
};
async function failure(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('the proposal did not fail');
}
const guard = (refusal: string | undefined, signal = new AbortController().signal): SpendGuard => ({
  refusal: () => refusal,
  signal,
});

describe('the circuit breaker', () => {
  it('takes the fixer out of the run after circuitBreaker calls in a row got no reply, and calls no more', async () => {
    server.script(
      { kind: 'error', status: 500, message: 'down' },
      { kind: 'error', status: 500, message: 'down' },
    );
    const f = teamFixer(server);
    const first = await failure(f.propose(sampleFixRequest(), sampleFixerContext()));
    expect(isFixerUnavailable(first)).toBe(false);
    const second = await failure(f.propose(sampleFixRequest(), sampleFixerContext()));
    expect(isFixerUnavailable(second)).toBe(true);
    expect(second.message).toMatch(
      /failed with 500 \(down\).*; 2 calls in a row got no reply, so this fixer is skipped for the rest of the run \(the fixer option "circuitBreaker"\)$/,
    );
    const third = await failure(f.propose(sampleFixRequest(), sampleFixerContext()));
    expect(third.message).toBe(second.message);
    expect(server.requests).toHaveLength(2);
  });

  it('counts only failures in a row: a reply closes the count', async () => {
    server.script(
      { kind: 'error', status: 500, message: 'down' },
      { kind: 'call', answer },
      { kind: 'error', status: 500, message: 'down' },
    );
    const f = teamFixer(server);
    await failure(f.propose(sampleFixRequest(), sampleFixerContext()));
    await f.propose(sampleFixRequest(), sampleFixerContext());
    expect(isFixerUnavailable(await failure(f.propose(sampleFixRequest(), sampleFixerContext())))).toBe(
      false,
    );
  });

  it('counts a failure the transport reports as no reply (claude on a dead endpoint), not one the model gave', async () => {
    const replies: Array<TransportReply<never>> = [
      { usage: emptyUsage(), failure: 'the model answered in plain text' },
      {
        usage: emptyUsage(),
        failure: 'cannot connect to http://127.0.0.1:9 (ConnectionRefused)',
        noReply: true,
      },
      {
        usage: emptyUsage(),
        failure: 'cannot connect to http://127.0.0.1:9 (ConnectionRefused)',
        noReply: true,
      },
    ];
    let sent = 0;
    const f = llmFixer({
      name: '@suture/llm-reporting',
      settings: resolveLlmSettings(LlmOptionsSchema.parse({}), {
        configDir: process.cwd(),
        env: {},
        defaults: { apiKeyEnv: 'REPORTING_KEY', maxOutputTokens: 100 },
      }),
      transport: {
        answer: 'Answer with the tool.',
        send: async () => (sent++, replies.shift()!),
      },
    });
    const errors = [];
    for (let i = 0; i < 4; i++)
      errors.push(await failure(f.propose(sampleFixRequest(), sampleFixerContext())));
    expect(errors.map(isFixerUnavailable)).toEqual([false, false, true, true]);
    expect(errors[2]!.message).toBe(
      'cannot connect to http://127.0.0.1:9 (ConnectionRefused); 2 calls in a row got no reply, so this fixer is skipped for the rest of the run (the fixer option "circuitBreaker")',
    );
    expect(sent).toBe(3);
  });

  it('is off at 0', async () => {
    server.script(
      ...Array.from({ length: 3 }, () => ({ kind: 'error' as const, status: 503, message: 'x' })),
    );
    const f = teamFixer(server, { circuitBreaker: 0 });
    for (let i = 0; i < 3; i++)
      expect(isFixerUnavailable(await failure(f.propose(sampleFixRequest(), sampleFixerContext())))).toBe(
        false,
      );
  });
});

describe('the run budget', () => {
  it('makes no call once the budget refuses, and says so as a reason to skip the fixer', async () => {
    const error = await failure(
      teamFixer(server).propose(
        sampleFixRequest(),
        sampleFixerContext({ spend: guard("the run's budget of 3 LLM call(s) is spent") }),
      ),
    );
    expect(isFixerUnavailable(error)).toBe(true);
    expect(error.message).toBe("no call made: the run's budget of 3 LLM call(s) is spent");
    expect(server.requests).toHaveLength(0);
  });

  it('stops a call that hangs when the time budget runs out', async () => {
    server.script({ kind: 'stall' });
    const clock = new AbortController();
    let spentOut = false;
    const spend: SpendGuard = {
      refusal: () => (spentOut ? "the run's time budget is spent (budget.maxWallMs 300 ms)" : undefined),
      signal: clock.signal,
    };
    setTimeout(() => {
      spentOut = true;
      clock.abort();
    }, 300);
    const error = await failure(teamFixer(server).propose(sampleFixRequest(), sampleFixerContext({ spend })));
    expect(isFixerUnavailable(error)).toBe(true);
    expect(error.message).toBe("call stopped: the run's time budget is spent (budget.maxWallMs 300 ms)");
  });
});
