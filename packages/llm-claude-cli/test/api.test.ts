import { ANSWER_TOOL_NAME, FIXER_SYSTEM_PROMPT, llmAnswerJsonSchema } from '@suture/core/llm';
import { FixerError, type FixerContext, type Logger, type Usage } from '@suture/core';
import { sampleFixerContext, sampleFixRequest, silentLogger } from '@suture/core/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import claude from '../src/index.js';
import type { ClaudeOptions } from '../src/options.js';
import { failedAttempt } from '../src/test-support/fix-request.js';
import { editAnswer } from './support/answers.js';
import {
  conversationOf,
  messagesOf,
  startMockAnthropic,
  type MockAnthropic,
} from './support/mock-anthropic.js';

// api mode through the real @anthropic-ai/sdk against the local Messages API.
let mock: MockAnthropic;
const KEY = 'sk-ant-api-test-0123456789';
const GOOD = editAnswer('shop/pricing.py', 'if units > 10:', 'if units >= 10:');
const savedEnv = { ...process.env };

beforeAll(async () => {
  mock = await startMockAnthropic();
});
afterAll(() => mock.close());
afterEach(() => {
  mock.requests.length = 0;
  expect(mock.pending()).toBe(0);
  process.env = { ...savedEnv };
});

function fixer(options: ClaudeOptions = {}) {
  return claude({ mode: 'api', baseURL: mock.url, apiKey: KEY, retries: 0, ...options });
}
function ctx(logger: Logger = silentLogger): FixerContext {
  return sampleFixerContext({ logger });
}
async function failure(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('the proposal did not fail');
}

describe('api mode', () => {
  it('forces the answer through the propose_fix tool and prices the tokens', async () => {
    mock.enqueue({
      kind: 'tool',
      input: GOOD,
      usage: {
        input_tokens: 2000,
        output_tokens: 300,
        cache_read_input_tokens: 1000,
        cache_creation_input_tokens: 0,
      },
    });
    const proposal = await fixer().propose(sampleFixRequest(), ctx());
    expect(proposal).toMatchObject({
      verdict: 'edits',
      edits: [{ file: 'shop/pricing.py', replace: 'if units >= 10:' }],
    });
    // claude-sonnet-4-6: $3 in, $15 out, $0.30 cached read per million tokens
    expect(proposal.usage).toMatchObject({
      model: 'claude-sonnet-4-6',
      calls: 1,
      inputTokens: 2000,
      outputTokens: 300,
      cacheReadTokens: 1000,
      costUsd: 0.0108,
    });

    const [call] = mock.fixCalls();
    const body = call!.body!;
    expect(call!.path).toBe('/v1/messages');
    expect(body.stream).toBeFalsy();
    expect(body.model).toBe('claude-sonnet-4-6');
    expect(body.tool_choice).toEqual({ type: 'tool', name: ANSWER_TOOL_NAME });
    // strict: the API holds the answer to the schema
    expect(body.tools).toEqual([
      expect.objectContaining({ name: ANSWER_TOOL_NAME, input_schema: llmAnswerJsonSchema(), strict: true }),
    ]);
    // the system prompt, the same for every failure, is the cached prefix
    expect(body.system).toEqual([
      {
        type: 'text',
        text: `${FIXER_SYSTEM_PROMPT}\nYou have no tools: work from the evidence and the source in the message.`,
        cache_control: { type: 'ephemeral' },
      },
    ]);
    expect(JSON.stringify(body.messages)).toContain('def discount(units):');
    expect(call!.headers['x-api-key'] ?? call!.headers.authorization).toContain(KEY);
  });

  it('continues the conversation of a failure group, answering the last tool call with what happened', async () => {
    const f = fixer();
    mock.enqueue({ kind: 'tool', input: editAnswer('shop/pricing.py', 'return 0.1', 'return 0.15') });
    await f.propose(sampleFixRequest(), ctx());
    mock.enqueue({ kind: 'tool', input: GOOD });
    await f.propose(
      sampleFixRequest({ attempt: 2, history: [failedAttempt(1, 'AssertionError: assert 0 == 0.1')] }),
      ctx(),
    );
    const [one, two] = mock.fixCalls();
    const messages = conversationOf(two!);
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(messages[0]).toEqual(conversationOf(one!)[0]);
    const toolUse = (messages[1]!.content as Array<{ type: string; id?: string }>).find(
      (b) => b.type === 'tool_use',
    )!;
    const [result, text] = messages[2]!.content as Array<{
      type: string;
      tool_use_id?: string;
      text?: string;
    }>;
    // the call is answered with what really became of the proposal: applied, still failing
    expect(result).toEqual({
      type: 'tool_result',
      tool_use_id: toolUse.id,
      content:
        "suture's verdict on your proposal: applied, and the failing tests were re-run: they still fail. What happened follows.",
    });
    expect(text!.text).toMatch(/^This is attempt 2 of 3 on the same failure/);
    expect(text!.text).toContain('AssertionError: assert 0 == 0.1');

    mock.enqueue({ kind: 'tool', input: GOOD });
    await f.propose(sampleFixRequest({ failure: { ...sampleFixRequest().failure, id: 'shop:f2' } }), ctx());
    expect(messagesOf(mock.fixCalls()[2]!)).toHaveLength(1);
  });

  it('sends each attempt on its own when resume is off', async () => {
    const f = fixer({ resume: false });
    mock.enqueue({ kind: 'tool', input: GOOD }, { kind: 'tool', input: GOOD });
    await f.propose(sampleFixRequest(), ctx());
    await f.propose(sampleFixRequest({ attempt: 2, history: [failedAttempt(1, 'still failing')] }), ctx());
    const second = messagesOf(mock.fixCalls()[1]!);
    expect(second).toHaveLength(1);
    expect(JSON.stringify(second[0]!.content)).toContain('def discount(units):');
  });

  it('uses the prices option, and warns once that an unknown model costs 0', async () => {
    const warnings: string[] = [];
    const logger = { ...silentLogger, warn: (m: string) => void warnings.push(m) };
    mock.enqueue({
      kind: 'tool',
      input: GOOD,
      usage: {
        input_tokens: 1_000_000,
        output_tokens: 0,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 0,
      },
    });
    const priced = await fixer({
      model: 'house-model',
      prices: { 'house-model': { input: 2, output: 4 } },
    }).propose(sampleFixRequest(), ctx(logger));
    expect(priced.usage).toMatchObject({ model: 'house-model', costUsd: 2 });
    mock.enqueue({ kind: 'tool', input: GOOD }, { kind: 'tool', input: GOOD });
    const f = fixer({ model: 'claude-unknown-9' });
    await f.propose(sampleFixRequest(), ctx(logger));
    const unpriced = await f.propose(sampleFixRequest(), ctx(logger));
    expect(unpriced.usage).toMatchObject({ model: 'claude-unknown-9', costUsd: 0, calls: 1 });
    expect(warnings).toEqual([
      '@suture/llm-claude-cli: no price for the model "claude-unknown-9"; its cost counts as 0 until the fixer option "prices" names it',
    ]);
  });

  it('redacts the key and the secrets of the environment from what it sends', async () => {
    process.env.SHOP_DB_PASSWORD = 'pw-from-the-environment-42';
    mock.enqueue({ kind: 'tool', input: GOOD });
    const leaky = sampleFixRequest({
      failure: {
        ...sampleFixRequest().failure,
        evidence: `E   login failed for pw-from-the-environment-42 with ${KEY}`,
      },
    });
    await fixer().propose(leaky, ctx());
    const sent = JSON.stringify(mock.fixCalls()[0]!.body);
    expect(sent).toContain('E   login failed for [REDACTED] with [REDACTED]');
    expect(sent).not.toContain(KEY);
  });

  it('masks a secret only the fixer knows in the texts of its proposal, not in its edits', async () => {
    const key = 'team-config-secret-42';
    mock.enqueue({
      kind: 'tool',
      input: editAnswer(
        'shop/pricing.py',
        'if units > 10:',
        'if units >= 10:',
        `not the key ${key}: the boundary`,
      ),
    });
    const proposal = await fixer({ apiKey: key }).propose(sampleFixRequest(), ctx());
    expect(proposal).toMatchObject({
      rationale: 'not the key [REDACTED]: the boundary',
      edits: [{ search: 'if units > 10:', replace: 'if units >= 10:' }],
    });
  });

  it('takes the key from apiKeyEnv, or a bearer token from ANTHROPIC_AUTH_TOKEN', async () => {
    process.env.TEAM_CLAUDE_KEY = 'sk-ant-team-0123456789';
    mock.enqueue({ kind: 'tool', input: GOOD });
    await fixer({ apiKey: undefined, apiKeyEnv: 'TEAM_CLAUDE_KEY' }).propose(sampleFixRequest(), ctx());
    const first = mock.fixCalls()[0]!.headers;
    expect(first['x-api-key'] ?? first.authorization).toContain('sk-ant-team-0123456789');

    delete process.env.ANTHROPIC_API_KEY;
    process.env.ANTHROPIC_AUTH_TOKEN = 'bearer-token-0123456789';
    mock.enqueue({ kind: 'tool', input: GOOD });
    await fixer({ apiKey: undefined }).propose(sampleFixRequest(), ctx());
    expect(mock.fixCalls()[1]!.headers.authorization).toBe('Bearer bearer-token-0123456789');
  });
});

describe('api mode: each bad input is a failed attempt with a reason', () => {
  it('no key', async () => {
    delete process.env.ANTHROPIC_API_KEY;
    delete process.env.ANTHROPIC_AUTH_TOKEN;
    const error = await failure(fixer({ apiKey: undefined }).propose(sampleFixRequest(), ctx()));
    expect(error.message).toBe(
      'no Anthropic API key: set ANTHROPIC_API_KEY (or ANTHROPIC_AUTH_TOKEN), or use mode "cli" with a logged-in claude',
    );
    expect(mock.requests).toHaveLength(0);
  });

  it('a rejected key', async () => {
    mock.enqueue({ kind: 'error', status: 401, message: 'invalid x-api-key' });
    const error = await failure(fixer().propose(sampleFixRequest(), ctx()));
    expect(error.message).toBe(
      `${mock.url} refused the API key from the apiKey option (401: invalid x-api-key): fix the fixer option "apiKey" (better: remove it and set ANTHROPIC_API_KEY)`,
    );
  });

  it('rate limits (429) that outlast the SDK retries', async () => {
    mock.enqueue(
      ...Array.from({ length: 2 }, () => ({
        kind: 'error' as const,
        status: 429,
        message: 'slow down',
        headers: { 'retry-after-ms': '10' },
      })),
    );
    const error = await failure(fixer({ retries: 1 }).propose(sampleFixRequest(), ctx()));
    expect(error.message).toBe(
      `rate limited by ${mock.url} after 1 retry (429: slow down): re-run later, raise the fixer option "retries", or lower "concurrency"`,
    );
    expect(mock.fixCalls()).toHaveLength(2);
  });

  it('an answer in plain text, which still cost tokens', async () => {
    mock.enqueue({ kind: 'text', text: 'Looks fine.' });
    const error = await failure(fixer().propose(sampleFixRequest(), ctx()));
    expect(error).toBeInstanceOf(FixerError);
    expect(error.message).toBe(
      'the model "claude-sonnet-4-6" answered in plain text instead of calling propose_fix: Looks fine.',
    );
    expect((error as FixerError).usage).toMatchObject({ calls: 1 });
    expect((error as FixerError).usage!.costUsd).toBeGreaterThan(0);
  });

  it('an answer that fails the schema, sent back once as an error of its tool call', async () => {
    const bad = { kind: 'tool' as const, input: { verdict: 'fixed', files: ['a.py'] } };
    mock.enqueue(bad, bad);
    const error = await failure(fixer().propose(sampleFixRequest(), ctx()));
    expect(error.message).toMatch(
      /^the model's answer does not match the proposal schema: verdict: .*\(model "claude-sonnet-4-6"\); 1 re-ask failed too \(the fixer option "answerRetries"\)$/,
    );
    expect((error as FixerError).usage!.calls).toBe(2);
    const [result, text] = conversationOf(mock.fixCalls()[1]!).at(-1)!.content as Array<
      Record<string, unknown>
    >;
    expect(result).toMatchObject({ type: 'tool_result', is_error: true });
    expect(String(result!.content)).toMatch(
      /^Your answer could not be used: the model's answer does not match/,
    );
    expect(String(text!.text)).toMatch(/Nothing was applied\. Answer again with the complete proposal/);
  });

  it('marks the stable prefix for the prompt cache, and a follow-up reads the conversation from it', async () => {
    const f = fixer();
    // a failure no earlier test sent, so its prompt is not in the cache yet
    const cached = { ...sampleFixRequest().failure, id: 'shop:cache', evidence: 'E   assert 0 == 0.125' };
    mock.enqueue({ kind: 'tool', input: editAnswer('shop/pricing.py', 'return 0.1', 'return 0.15') });
    const first = (await f.propose(sampleFixRequest({ failure: cached }), ctx())).usage as Usage;
    mock.enqueue({ kind: 'tool', input: GOOD });
    const second = (
      await f.propose(
        sampleFixRequest({
          failure: cached,
          attempt: 2,
          history: [failedAttempt(1, 'AssertionError: assert 0 == 0.1')],
        }),
        ctx(),
      )
    ).usage as Usage;
    // the first call writes its prompt to the cache (the tool and system prompt were written by
    // earlier failures), the second reads all of it and pays full price only for the new turn
    expect(first.cacheWriteTokens).toBeGreaterThan(0);
    expect(second.cacheReadTokens).toBe(first.cacheReadTokens + first.cacheWriteTokens);
    expect(second.inputTokens + second.cacheWriteTokens).toBeLessThan(first.cacheWriteTokens);
    // one mark on the system prompt, one on the newest turn: earlier turns carry none
    const marks = (r: (typeof mock.requests)[number]): number =>
      JSON.stringify(r.body).split('cache_control').length - 1;
    expect(mock.fixCalls().map(marks)).toEqual([2, 2]);
  });

  it('on the last attempt reads the history from the cache and writes nothing no call would read', async () => {
    const f = fixer();
    const cached = { ...sampleFixRequest().failure, id: 'shop:last', evidence: 'E   assert 0 == 0.375' };
    mock.enqueue({ kind: 'tool', input: editAnswer('shop/pricing.py', 'return 0.1', 'return 0.15') });
    const first = (await f.propose(sampleFixRequest({ failure: cached, maxAttempts: 2 }), ctx()))
      .usage as Usage;
    mock.enqueue({ kind: 'tool', input: GOOD });
    const last = (
      await f.propose(
        sampleFixRequest({
          failure: cached,
          attempt: 2,
          maxAttempts: 2,
          history: [failedAttempt(1, 'AssertionError: assert 0 == 0.1')],
        }),
        ctx(),
      )
    ).usage as Usage;
    // the first prompt, written by the first call, is read; only the model's last answer is written
    expect(last.cacheReadTokens).toBe(first.cacheReadTokens + first.cacheWriteTokens);
    expect(last.cacheWriteTokens).toBeLessThan(100);
    expect(last.inputTokens).toBeGreaterThan(0);
    const [, request] = mock.fixCalls().slice(-2);
    const messages = request!.body!.messages as Array<{ content: Array<Record<string, unknown>> }>;
    expect(messages.map((m) => m.content.some((b) => 'cache_control' in b))).toEqual([false, true, false]);

    // a single attempt: nothing to continue, so the prompt is input, not a cache write
    const once = { ...cached, id: 'shop:once', evidence: 'E   assert 0 == 0.625' };
    mock.enqueue({ kind: 'tool', input: GOOD });
    const single = (await f.propose(sampleFixRequest({ failure: once, maxAttempts: 1 }), ctx()))
      .usage as Usage;
    expect(single.inputTokens).toBeGreaterThan(single.cacheWriteTokens);
  });

  it('a refusal', async () => {
    mock.enqueue({ kind: 'text', text: 'I cannot help with that.', stopReason: 'refusal' });
    const error = await failure(fixer().propose(sampleFixRequest(), ctx()));
    expect(error.message).toBe('the model "claude-sonnet-4-6" refused to answer: I cannot help with that.');
  });

  it('no answer within the timeout, which takes the fixer out of the run', async () => {
    mock.enqueue({ kind: 'hang' });
    const error = await failure(fixer({ timeoutMs: 1000 }).propose(sampleFixRequest(), ctx()));
    expect(error.message).toBe(
      `no reply from ${mock.url}/v1/messages within 1 s: raise the fixer option "timeoutMs", lower "maxOutputTokens", or use a faster model; a call that runs out its time limit opens the breaker, so this fixer is skipped for the rest of the run (the fixer option "circuitBreaker")`,
    );
  });

  it('a server that is not there', async () => {
    const error = await failure(fixer({ baseURL: 'http://127.0.0.1:9' }).propose(sampleFixRequest(), ctx()));
    expect(error.message).toBe(
      'cannot connect to http://127.0.0.1:9/v1/messages (bad port): is the server at http://127.0.0.1:9 running?',
    );
  });
});
