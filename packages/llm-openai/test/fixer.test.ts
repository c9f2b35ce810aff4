import { FixerError, FixProposalSchema, type Fixer } from '@suture/core';
import { llmAnswerJsonSchema } from '@suture/core/llm';
import { sampleFixerContext } from '@suture/core/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import openai, { type OpenAIOptions } from '../src/index.js';
import { fixRequest } from '../src/test-support/fix-request.js';
import {
  bugAnswer,
  call,
  closedPort,
  editsAnswer,
  hang,
  httpError,
  stall,
  startMockOpenAI,
  text,
  type MockOpenAI,
} from './mock-openai.js';

let mock: MockOpenAI;
beforeAll(async () => {
  mock = await startMockOpenAI();
});
afterAll(() => mock.close());
afterEach(() => mock.reset());

const FIX = editsAnswer([{ file: 'src/pricing.js', search: 'amount > 100', replace: 'amount >= 100' }]);
const local = (over: OpenAIOptions = {}, env: NodeJS.ProcessEnv = {}): Fixer =>
  openai({ baseURL: mock.baseURL, model: 'qwen2.5-coder', retries: 0, ...over }, { env });

/** Runs propose and returns what it threw. */
async function failure(fixer: Fixer, request = fixRequest()): Promise<Error> {
  try {
    await fixer.propose(request, sampleFixerContext());
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected propose to throw');
}

describe('a proposal over Chat Completions', () => {
  it('forces a strict propose_fix call and turns its arguments into a proposal with usage', async () => {
    mock.script(call(FIX, { tokens: { input: 2000, output: 300 } }));
    const proposal = FixProposalSchema.parse(
      await local({ prices: { 'qwen2.5-coder': { input: 1, output: 4 } } }).propose(
        fixRequest(),
        sampleFixerContext(),
      ),
    );
    expect(proposal).toEqual({
      verdict: 'edits',
      rationale: 'the boundary is inclusive',
      edits: [{ file: 'src/pricing.js', search: 'amount > 100', replace: 'amount >= 100' }],
      usage: {
        model: 'qwen2.5-coder',
        inputTokens: 2000,
        outputTokens: 300,
        cacheReadTokens: 0,
        cacheWriteTokens: 0,
        costUsd: 0.0032,
        calls: 1,
        durationMs: expect.any(Number),
      },
    });
    const [sent] = mock.completions();
    expect(sent!.path).toBe('/v1/chat/completions');
    expect(sent!.body.tools).toEqual([
      {
        type: 'function',
        function: {
          name: 'propose_fix',
          description: expect.any(String),
          parameters: llmAnswerJsonSchema(),
          strict: true,
        },
      },
    ]);
    expect(sent!.body.tools[0].function.parameters.additionalProperties).toBe(false);
    expect(sent!.body.tool_choice).toEqual({ type: 'function', function: { name: 'propose_fix' } });
    expect(sent!.body.model).toBe('qwen2.5-coder');
    expect(sent!.body.max_tokens).toBe(16_384);
  });

  it('renders the failure, the scope, the source and the answer instructions into the prompt', async () => {
    mock.script(call(FIX));
    await local().propose(fixRequest(), sampleFixerContext());
    const [system, user] = mock.completions()[0]!.body.messages;
    expect(system.role).toBe('system');
    expect(system.content).toContain('You are the fixer of suture');
    expect(system.content).toContain(
      'You have no tools: work from the evidence and the source in the message.',
    );
    expect(user.content).toContain('Expected: 90');
    expect(user.content).toContain('src/pricing.js (source; discount): called by the test (depth 2)');
    expect(user.content).toContain('return amount > 100 ? amount * 0.1 : 0;');
    expect(user.content).toContain('Answer by calling the function `propose_fix` exactly once');
    expect(user.content).not.toMatch(/\{\{\w+\}\}/);
  });

  it('uses the build template for a syntax failure', async () => {
    mock.script(call(FIX));
    const base = fixRequest();
    await local().propose(
      fixRequest({ failure: { ...base.failure, kind: 'syntax', title: 'SyntaxError: Unexpected token' } }),
      sampleFixerContext(),
    );
    expect(mock.completions()[0]!.body.messages[1].content).toMatch(
      /^A javascript project stopped at a build- or syntax-level failure/,
    );
  });

  it('shows attempt 1 (its patch and what happened) in the prompt of attempt 2', async () => {
    mock.script(call(FIX));
    const history = [
      {
        attempt: 1,
        fixer: '@suture/llm-openai',
        verdict: 'failed-validation',
        rationale: 'the rate is wrong',
        diff: '--- a/src/pricing.js\n+++ b/src/pricing.js\n@@ -1,3 +1,3 @@\n-  return amount > 100 ? amount * 0.1 : 0;\n+  return amount > 100 ? amount * 0.2 : 0;\n',
        outcome: '1 test(s) still failing',
      },
    ];
    await local().propose(fixRequest({ history, attempt: 2 }), sampleFixerContext());
    const user: string = mock.completions()[0]!.body.messages[1].content;
    expect(user).toContain(
      '### Attempt 1 (@suture/llm-openai): applied, and the failing tests were re-run: they still fail',
    );
    expect(user).toContain('+  return amount > 100 ? amount * 0.2 : 0;');
    expect(user).toContain('What happened:\n\n```text\n1 test(s) still failing\n```');
    expect(user).toContain('This is attempt 2 of 3.');
  });

  it('returns a product-bug verdict with its report', async () => {
    mock.script(
      call(
        bugAnswer({
          summary: 'discount starts above 100, not at 100',
          expected: '90',
          actual: '100',
          evidence: 'amount > 100',
          symbol: 'discount',
        }),
      ),
    );
    const proposal = FixProposalSchema.parse(await local().propose(fixRequest(), sampleFixerContext()));
    expect(proposal).toMatchObject({
      verdict: 'product-bug',
      bug: {
        summary: 'discount starts above 100, not at 100',
        expected: '90',
        actual: '100',
        symbol: 'discount',
      },
    });
    expect((proposal as { bug: object }).bug).not.toHaveProperty('file');
  });

  it('sends a placeholder key to a server that needs none, and prices nothing', async () => {
    mock.script(call(FIX));
    const proposal = await local().propose(fixRequest(), sampleFixerContext());
    expect(mock.completions()[0]!.headers.authorization).toBe('Bearer no-key');
    expect(proposal.usage).toMatchObject({ costUsd: 0, inputTokens: 1200, outputTokens: 150 });
  });

  it('counts cached input apart, at the cached price', async () => {
    mock.script(call(FIX, { tokens: { input: 10_000, cached: 8_000, output: 1000 } }));
    const proposal = await local({ prices: { qwen: { input: 1, output: 2, cacheRead: 0.1 } } }).propose(
      fixRequest(),
      sampleFixerContext(),
    );
    expect(proposal.usage).toMatchObject({
      inputTokens: 2000,
      cacheReadTokens: 8000,
      outputTokens: 1000,
      costUsd: 0.0048,
    });
  });
});

describe('usage and cost', () => {
  it('prices the configured name before the dated name the server answers with', async () => {
    mock.script(
      call(FIX, { model: 'team-coder-2025-08-07', tokens: { input: 1_000_000, output: 1_000_000 } }),
    );
    const proposal = await local({
      model: 'team-coder',
      prices: { 'team-coder': { input: 1, output: 3 }, 'team-coder-2025': { input: 9, output: 9 } },
    }).propose(fixRequest(), sampleFixerContext());
    expect(proposal.usage).toMatchObject({ model: 'team-coder-2025-08-07', costUsd: 4, calls: 1 });
  });

  it('prices a served name by its longest prefix when the configured one has no price', async () => {
    mock.script(call(FIX, { model: 'team-coder-2025-08-07', tokens: { input: 1_000_000, output: 0 } }));
    const proposal = await local({
      model: 'alias',
      prices: { team: { input: 1, output: 1 }, 'team-coder': { input: 2, output: 2 } },
    }).propose(fixRequest(), sampleFixerContext());
    expect(proposal.usage).toMatchObject({ model: 'team-coder-2025-08-07', costUsd: 2 });
  });

  it('keeps the cost of a call whose answer is unusable', async () => {
    mock.script(call('{"verdict": "edits", ', { tokens: { input: 1_000_000, output: 0 } }));
    const error = await failure(
      local({ answerRetries: 0, prices: { 'qwen2.5-coder': { input: 2, output: 2 } } }),
    );
    expect(error).toBeInstanceOf(FixerError);
    expect(error.message).toMatch(/^the model's answer is not JSON: .* \(model "qwen2\.5-coder"\)$/);
    expect((error as FixerError).usage).toMatchObject({ inputTokens: 1_000_000, costUsd: 2, calls: 1 });
  });
});

describe('secrets', () => {
  const KEY = 'cfg-secret-key-0123456789';

  it('sends the configured key only in the Authorization header, never in the body or a message', async () => {
    mock.requireKey = KEY;
    mock.script(call({ ...FIX, rationale: `the key ${KEY} leaked into the rationale` }));
    const base = fixRequest();
    const request = fixRequest({
      failure: {
        ...base.failure,
        evidence: `${base.failure.evidence}\nconfig: ${KEY}\nOPENAI_API_KEY=sk-proj-abcdefghijklmnopqrstuvwxyz012345`,
      },
    });
    const proposal = await local({ apiKey: KEY }).propose(request, sampleFixerContext());
    const [sent] = mock.completions();
    expect(sent!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(sent!.raw).not.toContain(KEY);
    expect(sent!.raw).not.toContain('sk-proj-abcdefghijklmnopqrstuvwxyz012345');
    expect(sent!.body.messages[1].content).toContain('config: [REDACTED]');
    expect(proposal).toMatchObject({ rationale: 'the key [REDACTED] leaked into the rationale' });
  });

  it('keeps a secret out of an error message that echoes it', async () => {
    mock.script(httpError(400, `bad request from key ${KEY}`));
    const error = await failure(local({ apiKey: KEY }));
    expect(error.message).toContain('bad request from key [REDACTED]');
    expect(error.message).not.toContain(KEY);
  });
});

describe('the Responses API', () => {
  it('sends a forced strict function with instructions and store: false, and reads the function_call item', async () => {
    mock.script(call(FIX, { tokens: { input: 500, output: 50 } }));
    const proposal = FixProposalSchema.parse(
      await local({ api: 'responses' }).propose(fixRequest(), sampleFixerContext()),
    );
    expect(proposal).toMatchObject({
      verdict: 'edits',
      edits: [{ file: 'src/pricing.js', replace: 'amount >= 100' }],
      usage: { inputTokens: 500, outputTokens: 50, calls: 1 },
    });
    const [sent] = mock.completions();
    expect(sent!.path).toBe('/v1/responses');
    expect(sent!.body).toMatchObject({
      model: 'qwen2.5-coder',
      tools: [{ type: 'function', name: 'propose_fix', parameters: llmAnswerJsonSchema(), strict: true }],
      tool_choice: { type: 'function', name: 'propose_fix' },
      store: false,
      max_output_tokens: 16_384,
    });
    expect(sent!.body.instructions).toContain('You are the fixer of suture');
    expect(sent!.body.input[0].content).toContain('Expected: 90');
  });

  it('fails cleanly on a plain-text response, keeping the usage', async () => {
    mock.script(text('Use >= instead of >.', { input: 700, output: 20 }));
    const error = await failure(local({ api: 'responses' }));
    expect(error).toBeInstanceOf(FixerError);
    expect(error.message).toMatch(
      /answered in plain text instead of calling propose_fix .*: Use >= instead of >\.$/,
    );
    expect((error as FixerError).usage).toMatchObject({ inputTokens: 700, outputTokens: 20, calls: 1 });
  });
});

describe('each failure mode ends as a clean error that says what to do', () => {
  it('a plain-text answer with no tool call (tokens spent: FixerError with usage)', async () => {
    mock.script(text('You should change > to >= in pricing.js.'));
    const error = await failure(local());
    expect(error).toBeInstanceOf(FixerError);
    expect(error.message).toBe(
      `the model "qwen2.5-coder" answered in plain text instead of calling propose_fix (does it support tool calling on ${mock.baseURL}? try a model that does): You should change > to >= in pricing.js.`,
    );
    expect((error as FixerError).usage).toMatchObject({ inputTokens: 1200, outputTokens: 150, calls: 1 });
  });

  it.each([
    [
      'arguments that fail the schema',
      {
        verdict: 'edits',
        rationale: 'r',
        edits: [{ file: 'src/pricing.js', search: null, replace: 'x', content: null }],
        bug: null,
        diagnosis: null,
      },
      /has neither a search text nor a whole-file content \(model "qwen2\.5-coder"\)$/,
    ],
    [
      'an unknown verdict',
      { verdict: 'maybe', rationale: 'r', edits: [], bug: null, diagnosis: null },
      /does not match the proposal schema: verdict/,
    ],
    ['arguments that are not JSON', '{"verdict": "edits", ', /the model's answer is not JSON/],
  ])('%s (FixerError with usage)', async (_name, answer, reason) => {
    mock.script(call(answer));
    const error = await failure(local({ answerRetries: 0 }));
    expect(error).toBeInstanceOf(FixerError);
    expect(error.message).toMatch(reason);
    expect((error as FixerError).usage?.calls).toBe(1);
  });

  it('an answer cut off at the output limit', async () => {
    mock.script(call('{"verdict":"edits","rationale":"the bound', { cutOff: true }));
    const error = await failure(local({ maxOutputTokens: 64 }));
    expect(error.message).toBe(
      'the model "qwen2.5-coder" ran out of output tokens (maxOutputTokens 64) before it finished its answer: raise the fixer option "maxOutputTokens"',
    );
    expect(mock.completions()[0]!.body.max_tokens).toBe(64);
  });

  it('a refusal, and a call of another function', async () => {
    mock.script({ kind: 'refusal', refusal: 'I cannot help with that.' }, call({}, { name: 'read_file' }));
    expect((await failure(local())).message).toBe(
      'the model "qwen2.5-coder" refused to answer: I cannot help with that.',
    );
    expect((await failure(local())).message).toBe(
      'the model "qwen2.5-coder" called read_file instead of propose_fix',
    );
  });

  it('429 is retried, and a later success is a proposal', async () => {
    mock.script(
      httpError(429, 'Rate limit reached', { code: 'rate_limit_exceeded', type: 'requests' }),
      call(FIX),
    );
    const proposal = await local({ retries: 2 }).propose(fixRequest(), sampleFixerContext());
    expect(proposal.verdict).toBe('edits');
    expect(mock.completions().map((r) => r.headers['x-stainless-retry-count'])).toEqual(['0', '1']);
  });

  it('429 after every retry (no tokens spent: a plain Error)', async () => {
    mock.script(
      ...Array(3).fill(
        httpError(429, 'Rate limit reached', { code: 'rate_limit_exceeded', type: 'requests' }),
      ),
    );
    const error = await failure(local({ retries: 2 }));
    expect(error).not.toBeInstanceOf(FixerError);
    expect(error.message).toBe(
      `rate limited by ${mock.baseURL} after 2 retries (429: Rate limit reached): re-run later, raise the fixer option "retries", or lower "concurrency"`,
    );
    expect(mock.completions()).toHaveLength(3);
  });

  it('500s after every retry', async () => {
    mock.script(httpError(500, 'The server had an error'), httpError(500, 'The server had an error'));
    const error = await failure(local({ retries: 1 }));
    expect(error.message).toBe(
      `${mock.baseURL}/chat/completions failed with 500 after 1 retry (The server had an error): the server is in trouble; re-run later`,
    );
    expect(mock.completions()).toHaveLength(2);
  });

  it('a reply slower than the timeout, which takes the fixer out of the run', async () => {
    mock.script(hang());
    const error = await failure(local({ timeoutMs: 300 }));
    expect(error.message).toBe(
      `no reply from ${mock.baseURL}/chat/completions within 300 ms: raise the fixer option "timeoutMs", lower "maxOutputTokens", or use a faster model; a call that runs out its time limit opens the breaker, so this fixer is skipped for the rest of the run (the fixer option "circuitBreaker")`,
    );
  });

  it('a reply whose body stalls after the headers is cut at timeoutMs, which leaves no time for a retry', async () => {
    mock.script(stall(), stall());
    const error = await failure(local({ timeoutMs: 300, retries: 1 }));
    expect(error.message).toMatch(/^no reply from .* within 300 ms: /);
    expect(mock.completions()).toHaveLength(1);
  });

  it('an auth error (401) says which variable to set', async () => {
    mock.requireKey = 'the-right-key';
    const error = await failure(local({}, { OPENAI_API_KEY: 'a-wrong-key' }));
    expect(error.message).toBe(
      `${mock.baseURL} refused the API key from $OPENAI_API_KEY (401: Incorrect API key provided.): set OPENAI_API_KEY to a valid key`,
    );
    expect(mock.completions()[0]!.headers.authorization).toBe('Bearer a-wrong-key');
  });

  it('connection refused asks whether the server is running', async () => {
    const baseURL = `http://127.0.0.1:${await closedPort()}/v1`;
    const error = await failure(openai({ baseURL, model: 'qwen2.5-coder', retries: 0 }, { env: {} }));
    expect(error.message).toBe(
      `cannot connect to ${baseURL}/chat/completions (ECONNREFUSED): is the server at ${baseURL} running?`,
    );
  });

  it('no key for OpenAI: says which variable to set, before any request', async () => {
    const error = await failure(openai({}, { env: {} }));
    expect(error.message).toBe(
      'no API key for https://api.openai.com/v1: set OPENAI_API_KEY, or point "baseURL" at a local server that needs none',
    );
  });

  it('an aborted signal cancels the request in flight', async () => {
    mock.script(hang());
    const controller = new AbortController();
    const pending = local({ timeoutMs: 60_000 }).propose(
      fixRequest(),
      sampleFixerContext({ signal: controller.signal }),
    );
    await vi.waitFor(() => expect(mock.completions()).toHaveLength(1));
    controller.abort();
    await expect(pending).rejects.toThrow(
      `the request to ${mock.baseURL}/chat/completions was cancelled: the run was interrupted`,
    );
  });
});

describe('doctor', () => {
  it('says no key is needed and the local server serves the model, with one models request and no completion', async () => {
    const checks = await local().doctor!();
    expect(checks).toEqual([
      {
        name: 'api key',
        status: 'ok',
        message: `no key set: none needed for ${mock.baseURL} (set OPENAI_API_KEY if the server wants one)`,
      },
      { name: 'endpoint', status: 'ok', message: `${mock.baseURL} answers: 2 model(s) listed` },
      { name: 'model', status: 'ok', message: '"qwen2.5-coder" is served (Chat Completions)' },
    ]);
    expect(mock.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /v1/models']);
    expect(mock.requests[0]!.headers['x-stainless-retry-count']).toBe('0');
  });

  it('warns when the model is not listed, with the command to get it', async () => {
    mock.models = ['llama3.2:latest'];
    const checks = await local().doctor!();
    expect(checks[2]).toEqual({
      name: 'model',
      status: 'warn',
      message: `${mock.baseURL} does not list the model "qwen2.5-coder"`,
      fix: 'check the fixer option "model" (for Ollama: `ollama pull qwen2.5-coder`)',
    });
  });

  it('reports a refused key once, without retrying', async () => {
    mock.requireKey = 'the-right-key';
    const checks = await local({ retries: 5 }, { OPENAI_API_KEY: 'a-wrong-key' }).doctor!();
    expect(checks[0]).toEqual({ name: 'api key', status: 'ok', message: 'key set (from $OPENAI_API_KEY)' });
    expect(checks[1]).toMatchObject({
      name: 'endpoint',
      status: 'error',
      message: expect.stringContaining('refused the API key from $OPENAI_API_KEY (401'),
      fix: 'set OPENAI_API_KEY to a valid key',
    });
    expect(mock.requests).toHaveLength(1);
  });

  it('reports a server that is not running', async () => {
    const baseURL = `http://127.0.0.1:${await closedPort()}/v1`;
    const checks = await openai({ baseURL, model: 'qwen2.5-coder' }, { env: {} }).doctor!();
    expect(checks[1]).toEqual({
      name: 'endpoint',
      status: 'error',
      message: `cannot connect to ${baseURL}/models (ECONNREFUSED): is the server at ${baseURL} running?`,
      fix: `start the server at ${baseURL}, or fix the fixer option "baseURL"`,
    });
  });

  it('only warns about a server without a models list, which chat completions do not need', async () => {
    const baseURL = mock.baseURL.replace(/\/v1$/, '/v2');
    const checks = await openai({ baseURL, model: 'qwen2.5-coder', retries: 0 }, { env: {} }).doctor!();
    expect(checks[1]).toEqual({
      name: 'endpoint',
      status: 'warn',
      message: `${baseURL}/models answered 404 (mock: no route GET /v2/models): check the fixer option "model" ("qwen2.5-coder") (for Ollama: \`ollama pull qwen2.5-coder\`) and that baseURL is the API root ending in /v1`,
      fix: `check the fixer option "baseURL" (${baseURL})`,
    });
    expect(checks).toHaveLength(2);
  });

  it('says the key is missing for OpenAI and does not call it', async () => {
    expect(await openai({}, { env: {} }).doctor!()).toEqual([
      {
        name: 'api key',
        status: 'error',
        message: 'OPENAI_API_KEY is not set: https://api.openai.com/v1 needs a key',
        fix: 'export OPENAI_API_KEY=<your key>, or point the fixer option "baseURL" at a local server',
      },
      {
        name: 'endpoint',
        status: 'warn',
        message: 'https://api.openai.com/v1 not checked: no key to call it with',
      },
    ]);
  });
});
