import { isFixerUnavailable, type Fixer } from '@suture/core';
import { sampleFixerContext, sampleFixRequest } from '@suture/core/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import claude from '../src/index.js';
import type { ClaudeOptions } from '../src/options.js';
import { startMockAnthropic, type MockAnthropic } from './support/mock-anthropic.js';

// api mode through the real @anthropic-ai/sdk: timeoutMs bounds one call with everything the SDK
// does inside it (its retries, its back-off, a server's retry-after). The figures are far apart on
// purpose: without the bound each case below costs timeoutMs times 1 + retries, or the retry-after.
const LIMIT_MS = 1000;
const RETRIES = 5;
const KEY = 'sk-ant-api-test-0123456789';
/** What a hung call would cost if each retry waited timeoutMs again. */
const UNBOUNDED_MS = (1 + RETRIES) * LIMIT_MS;

let mock: MockAnthropic;
beforeAll(async () => {
  mock = await startMockAnthropic();
  // the first call loads the SDK: loaded here, so the cases below time the call alone
  mock.enqueue({ kind: 'error', status: 400, message: 'warm-up' });
  await fixer({ retries: 0 })
    .propose(sampleFixRequest(), sampleFixerContext())
    .catch(() => undefined);
  mock.requests.length = 0;
});
afterAll(() => mock.close());
afterEach(() => {
  mock.requests.length = 0;
  expect(mock.pending()).toBe(0);
});

const fixer = (options: ClaudeOptions = {}): Fixer =>
  claude({ mode: 'api', baseURL: mock.url, apiKey: KEY, timeoutMs: LIMIT_MS, retries: RETRIES, ...options });

/** What propose threw, and how long it took to throw it. */
async function failed(f: Fixer): Promise<{ error: Error; ms: number }> {
  const started = Date.now();
  try {
    await f.propose(sampleFixRequest(), sampleFixerContext());
  } catch (error) {
    return { error: error as Error, ms: Date.now() - started };
  }
  throw new Error('expected propose to throw');
}

const TIMED_OUT = /^no reply from .*\/v1\/messages within 1 s: raise the fixer option "timeoutMs"/;

describe('one API-mode call costs at most timeoutMs, retries included', () => {
  it('a server that never answers: one request, cut at the limit, however many retries are allowed', async () => {
    mock.enqueue({ kind: 'hang' });
    const { error, ms } = await failed(fixer());
    expect(error.message).toMatch(TIMED_OUT);
    expect(mock.fixCalls()).toHaveLength(1);
    expect(ms).toBeLessThan(UNBOUNDED_MS / 2);
  });

  it('a 529 and then a hang: the retry is made, within the same limit', async () => {
    mock.enqueue(
      { kind: 'error', status: 529, type: 'overloaded_error', message: 'Overloaded' },
      { kind: 'hang' },
    );
    const { error, ms } = await failed(fixer());
    expect(error.message).toMatch(TIMED_OUT);
    expect(mock.fixCalls()).toHaveLength(2);
    expect(ms).toBeLessThan(UNBOUNDED_MS / 2);
  });

  it('a server that asks for a 30 s wait before the retry (retry-after-ms) does not hold the call past its limit', async () => {
    mock.enqueue({
      kind: 'error',
      status: 529,
      type: 'overloaded_error',
      message: 'Overloaded',
      headers: { 'retry-after-ms': '30000' },
    });
    const { error, ms } = await failed(fixer());
    expect(error.message).toMatch(TIMED_OUT);
    expect(mock.fixCalls()).toHaveLength(1);
    expect(ms).toBeLessThan(UNBOUNDED_MS / 2);
  });
});

describe('the circuit breaker opens after the first timed-out call', () => {
  it('the next call of the run is refused without a request, naming the timeout and the option', async () => {
    mock.enqueue({ kind: 'hang' });
    const f = fixer();
    const first = await failed(f);
    expect(isFixerUnavailable(first.error)).toBe(true);
    expect(first.error.message).toMatch(
      /; a call that runs out its time limit opens the breaker, so this fixer is skipped for the rest of the run \(the fixer option "circuitBreaker"\)$/,
    );
    const second = await failed(f);
    expect(second.error.message).toBe(first.error.message);
    expect(mock.fixCalls()).toHaveLength(1);
  });

  it('circuitBreaker: 0 keeps asking after a timeout', async () => {
    mock.enqueue({ kind: 'hang' }, { kind: 'hang' });
    const f = fixer({ circuitBreaker: 0 });
    expect(isFixerUnavailable((await failed(f)).error)).toBe(false);
    expect((await failed(f)).error.message).toMatch(TIMED_OUT);
    expect(mock.fixCalls()).toHaveLength(2);
  });
});
