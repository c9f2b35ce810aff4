import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { call, closedPort, hang, httpError, startMockOpenAI, text, type MockOpenAI } from '../mock-openai.js';
import { cleanup, gate } from './support.js';

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

interface Mode {
  /** Scripts the server (or points the fixer elsewhere) and returns extra fixer options. */
  setup: (m: MockOpenAI) => Promise<Record<string, unknown>> | Record<string, unknown>;
  reason: RegExp;
  /** Calls the model answered (tokens spent and counted). */
  calls: number;
}

const MODES: Array<[string, Mode]> = [
  [
    'a plain-text answer with no tool call',
    {
      setup: (m) => (m.script(text('Change > to >= in pricing.js.')), {}),
      reason:
        /the model "qwen2\.5-coder" answered in plain text instead of calling propose_fix .*: Change > to >= in pricing\.js\./,
      calls: 1,
    },
  ],
  [
    'arguments that fail the schema',
    {
      setup: (m) => {
        const empty = { verdict: 'edits', rationale: 'r', edits: [], bug: null, diagnosis: null };
        m.script(call(empty), call(empty));
        return {};
      },
      // sent back once (answerRetries 1), and wrong again
      reason:
        /the model answered "edits" with no edit .*; 1 re-ask failed too \(the fixer option "answerRetries"\)/,
      calls: 2,
    },
  ],
  [
    '429 after retries',
    {
      setup: (m) => (
        m.fallback(() => httpError(429, 'Rate limit reached', { code: 'rate_limit_exceeded' })),
        { retries: 1 }
      ),
      reason:
        /rate limited by http:\/\/127\.0\.0\.1:\d+\/v1 after 1 retry \(429: Rate limit reached\): re-run later/,
      calls: 0,
    },
  ],
  [
    '500s',
    {
      setup: (m) => (m.fallback(() => httpError(500, 'The server had an error')), { retries: 1 }),
      reason: /\/v1\/chat\/completions failed with 500 after 1 retry \(The server had an error\)/,
      calls: 0,
    },
  ],
  [
    'a reply slower than the timeout',
    {
      setup: (m) => (m.fallback(() => hang()), { timeoutMs: 500 }),
      reason: /no reply from .*\/v1\/chat\/completions within 500 ms: raise the fixer option "timeoutMs"/,
      calls: 0,
    },
  ],
  [
    'an auth error (401)',
    {
      setup: (m) => ((m.requireKey = 'a-key-the-server-wants'), {}),
      reason:
        /wants an API key and none is set \(401: Incorrect API key provided\.\): set OPENAI_API_KEY to a valid key/,
      calls: 0,
    },
  ],
  [
    'connection refused',
    {
      setup: async () => ({ baseURL: `http://127.0.0.1:${await closedPort()}/v1` }),
      reason: /\(ECONNREFUSED\): is the server at http:\/\/127\.0\.0\.1:\d+\/v1 running\?/,
      calls: 0,
    },
  ],
];

describe('every failure of the fixer ends as a clean failed attempt, with the tree untouched', () => {
  it.each(MODES)('%s', async (_name, mode) => {
    const extra = await mode.setup(mock);
    const run = await gate({
      fixer: { baseURL: mock.baseURL, model: 'qwen2.5-coder', retries: 0, ...extra },
    });
    const project = run.report.projects[0]!;
    expect(project.failures).toHaveLength(1);
    const [failure] = project.failures;
    expect(failure!.attempts).toHaveLength(1);
    expect(failure!.attempts[0]!.verdict).toBe('fixer-error');
    expect(failure!.attempts[0]!.reason).toMatch(mode.reason);
    expect(failure!.attempts[0]!.reason).toMatch(
      /^@suture\/llm-openai \(suture\.config\.json#fixers\[0\]\): /,
    );
    expect(failure!.outcome).toBe('exhausted');
    expect(project.status).toBe('failed');
    expect(project.error).toBeUndefined();
    expect(run.report.exitCode).toBe(1);
    expect(run.report.error).toBeUndefined();
    expect(run.report.patch ?? '').toBe('');
    expect(run.after).toEqual(run.before);
    expect(run.written.totals).toMatchObject({
      llmCalls: mode.calls,
      inputTokens: 1200 * mode.calls,
      outputTokens: 150 * mode.calls,
    });
  });
});
