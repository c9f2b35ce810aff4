import type { GateReport } from '@suture/core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { closedPort, hang, httpError, startMockOpenAI, type MockOpenAI } from '../mock-openai.js';
import { cleanup, gate } from './support.js';

// What an endpoint that is down or hung costs a run: two Jest projects (a failure group each),
// gated one after the other with the fixer's default retries (2), circuit breaker (2) and
// attempts (3), through the real openai SDK.
let mock: MockOpenAI;
const saved = process.env.OPENAI_API_KEY;
beforeAll(async () => {
  delete process.env.OPENAI_API_KEY;
  mock = await startMockOpenAI();
});
afterEach(() => mock.reset());
afterAll(async () => {
  await mock.close();
  await cleanup();
  if (saved !== undefined) process.env.OPENAI_API_KEY = saved;
});

const COPIES = ['one', 'two'];
const attempts = (report: GateReport): Array<[string, string, string | undefined]> =>
  report.projects.flatMap((p) =>
    p.failures.flatMap((f) =>
      f.attempts.map((a): [string, string, string | undefined] => [p.name, a.verdict, a.reason]),
    ),
  );
const groupTwo = (report: GateReport) => report.projects.find((p) => p.name === 'two')!.failures[0]!;
const BREAKER =
  /; 2 calls in a row got no reply, so this fixer is skipped for the rest of the run \(the fixer option "circuitBreaker"\)$/;

describe('spend bounds with a failing endpoint', () => {
  it('an endpoint answering 500: two calls of three requests each, then the fixer is out for the run', async () => {
    mock.fallback(() => httpError(500, 'The server had an error'));
    const { report, written } = await gate({
      fixer: { baseURL: mock.baseURL, model: 'qwen2.5-coder' },
      heal: { maxAttempts: 3 },
      copies: COPIES,
    });
    // 1 + 2 retries per call, and the breaker opens at the second call: 6 requests, not 18
    expect(mock.completions()).toHaveLength(6);
    const rows = attempts(report);
    expect(rows.map(([p, v]) => [p, v])).toEqual([
      ['one', 'fixer-error'],
      ['one', 'fixer-error'],
    ]);
    expect(rows[0]![2]).toMatch(
      /chat\/completions failed with 500 after 2 retries \(The server had an error\)/,
    );
    expect(rows[1]![2]).toMatch(BREAKER);
    // the second group is not asked at all, and says why once
    expect(groupTwo(report).attempts).toEqual([]);
    expect(groupTwo(report).reason).toMatch(
      /^not asked: every fixer is out for this run\n@suture\/llm-openai: /,
    );
    expect(written.totals.llmCalls).toBe(0);
    expect(report.pluginErrors ?? []).toEqual([]);
  });

  it('a dead endpoint (connection refused): two calls, then the fixer is out for the run', async () => {
    const port = await closedPort();
    const { report } = await gate({
      fixer: { baseURL: `http://127.0.0.1:${port}/v1`, model: 'qwen2.5-coder' },
      heal: { maxAttempts: 3 },
      copies: COPIES,
    });
    const rows = attempts(report);
    expect(rows.map(([p, v]) => [p, v])).toEqual([
      ['one', 'fixer-error'],
      ['one', 'fixer-error'],
    ]);
    expect(rows[0]![2]).toMatch(
      new RegExp(
        `cannot connect to http://127\\.0\\.0\\.1:${port}/v1/chat/completions after 2 retries \\(ECONNREFUSED\\)`,
      ),
    );
    expect(rows[1]![2]).toMatch(BREAKER);
    expect(groupTwo(report).attempts).toEqual([]);
  });

  it('a hung endpoint: the call ends at timeoutMs, retries included, and the fixer is out for the run', async () => {
    mock.fallback(() => hang());
    const { report } = await gate({
      fixer: { baseURL: mock.baseURL, model: 'qwen2.5-coder', timeoutMs: 1000 },
      heal: { maxAttempts: 3 },
      copies: COPIES,
    });
    // one request of 1 s, not 1 + 2 retries on each of 2 calls
    expect(mock.completions()).toHaveLength(1);
    const rows = attempts(report);
    expect(rows.map(([p, v]) => [p, v])).toEqual([['one', 'fixer-error']]);
    expect(rows[0]![2]).toMatch(
      /no reply from http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions within 1 s: .*; a call that runs out its time limit opens the breaker, so this fixer is skipped for the rest of the run \(the fixer option "circuitBreaker"\)$/,
    );
    expect(groupTwo(report).attempts).toEqual([]);
  });

  it('a hung endpoint and the default timeout: the run budget stops the call and asks no more', async () => {
    mock.fallback(() => hang());
    const { report } = await gate({
      fixer: { baseURL: mock.baseURL, model: 'qwen2.5-coder' },
      heal: { maxAttempts: 3 },
      copies: COPIES,
      budget: { maxWallMs: 20_000 },
    });
    // one call at most (none when the test runs alone took the whole budget on a loaded machine)
    expect(mock.completions().length).toBeLessThanOrEqual(1);
    const rows = attempts(report);
    expect(rows.map(([p, v]) => [p, v])).toEqual([['one', 'fixer-error']]);
    expect(rows[0]![2]).toMatch(
      /^@suture\/llm-openai \(suture\.config\.json#fixers\[0\]\): (call stopped|no call made): the run's time budget is spent \(budget\.maxWallMs 20000 ms since the run started\)/,
    );
    expect(groupTwo(report).attempts).toEqual([]);
    expect(groupTwo(report).reason).toMatch(/the run's time budget is spent/);
  });
});
