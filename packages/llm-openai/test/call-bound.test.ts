import { isFixerUnavailable, type Fixer } from '@suture/core';
import { sampleFixerContext } from '@suture/core/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import openai, { type OpenAIOptions } from '../src/index.js';
import { fixRequest } from '../src/test-support/fix-request.js';
import { hang, httpError, startMockOpenAI, type MockOpenAI } from './mock-openai.js';

// timeoutMs bounds one call with everything the SDK does inside it (its retries, its back-off, a
// server's retry-after); the figures are far apart on purpose: without the bound each case below
// costs the SDK's per-request timeout times 1 + retries, or the server's retry-after.
const LIMIT_MS = 1000;
const RETRIES = 5;

let mock: MockOpenAI;
beforeAll(async () => {
  mock = await startMockOpenAI();
});
afterAll(() => mock.close());
afterEach(() => mock.reset());

const fixer = (over: OpenAIOptions = {}): Fixer =>
  openai(
    { baseURL: mock.baseURL, model: 'qwen2.5-coder', timeoutMs: LIMIT_MS, retries: RETRIES, ...over },
    { env: {} },
  );

/** What propose threw, and how long it took to throw it. */
async function failed(f: Fixer): Promise<{ error: Error; ms: number }> {
  const started = Date.now();
  try {
    await f.propose(fixRequest(), sampleFixerContext());
  } catch (error) {
    return { error: error as Error, ms: Date.now() - started };
  }
  throw new Error('expected propose to throw');
}

const TIMED_OUT = new RegExp(
  `^no reply from .* within ${LIMIT_MS / 1000} s: raise the fixer option "timeoutMs"`,
);

describe('one call to an OpenAI-compatible server costs at most timeoutMs, retries included', () => {
  it('a server that never answers: one request, cut at the limit, however many retries are allowed', async () => {
    mock.fallback(() => hang());
    const { error, ms } = await failed(fixer());
    expect(error.message).toMatch(TIMED_OUT);
    expect(mock.completions()).toHaveLength(1);
    // 6 requests of 1 s each without the bound
    expect(ms).toBeLessThan(2 * LIMIT_MS);
  });

  it('on the Responses API as on Chat Completions', async () => {
    mock.fallback(() => hang());
    const { error, ms } = await failed(fixer({ api: 'responses' }));
    expect(error.message).toMatch(/^no reply from .*\/responses within 1 s: /);
    expect(ms).toBeLessThan(2 * LIMIT_MS);
  });

  it('a 500 and then a hang: the retry is made, within the same limit', async () => {
    mock.script(httpError(500, 'The server had an error'));
    mock.fallback(() => hang());
    const { error, ms } = await failed(fixer());
    expect(error.message).toMatch(TIMED_OUT);
    expect(mock.completions()).toHaveLength(2);
    expect(ms).toBeLessThan(2 * LIMIT_MS);
  });

  it('a server that asks for a 30 s wait before the retry (retry-after-ms) does not hold the call past its limit', async () => {
    mock.script(httpError(503, 'overloaded', { retryAfterMs: 30_000 }));
    const { error, ms } = await failed(fixer());
    expect(error.message).toMatch(TIMED_OUT);
    expect(mock.completions()).toHaveLength(1);
    expect(ms).toBeLessThan(2 * LIMIT_MS);
  });
});

describe('the circuit breaker opens after the first timed-out call', () => {
  it('the next call of the run is refused without a request, naming the timeout and the option', async () => {
    mock.fallback(() => hang());
    const f = fixer();
    const first = await failed(f);
    expect(isFixerUnavailable(first.error)).toBe(true);
    expect(first.error.message).toMatch(
      /; a call that runs out its time limit opens the breaker, so this fixer is skipped for the rest of the run \(the fixer option "circuitBreaker"\)$/,
    );
    const second = await failed(f);
    expect(isFixerUnavailable(second.error)).toBe(true);
    expect(second.error.message).toBe(first.error.message);
    expect(mock.completions()).toHaveLength(1);
  });

  it('an error that is not a timeout still needs circuitBreaker calls in a row', async () => {
    mock.fallback(() => httpError(500, 'The server had an error'));
    const f = fixer({ retries: 0 });
    expect(isFixerUnavailable((await failed(f)).error)).toBe(false);
    expect(isFixerUnavailable((await failed(f)).error)).toBe(true);
    expect(mock.completions()).toHaveLength(2);
  });

  it('circuitBreaker: 0 keeps asking after a timeout', async () => {
    mock.fallback(() => hang());
    const f = fixer({ circuitBreaker: 0 });
    expect(isFixerUnavailable((await failed(f)).error)).toBe(false);
    expect((await failed(f)).error.message).toMatch(TIMED_OUT);
    expect(mock.completions()).toHaveLength(2);
  });
});
