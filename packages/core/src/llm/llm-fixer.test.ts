import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AttemptSummary, FixRequest } from '../api/contracts/fix.js';
import { FixerError } from '../api/errors.js';
import { sampleFixerContext, sampleFixRequest } from '../testing/sample-fix-request.js';
import { bufferedFetch } from './buffered-fetch.js';
import type { CallSite } from './call-failure.js';
import { chatTransport, startChatServer, type ChatServer } from './chat-server.test-support.js';
import { LlmOptionsSchema, resolveLlmSettings } from './fixer-options.js';
import { llmFixer } from './llm-fixer.js';

let server: ChatServer;
beforeAll(async () => {
  server = await startChatServer();
});
afterAll(() => server.close());
afterEach(() => {
  server.requests.length = 0;
});

const KEY = 'team-config-key-42';
const SECRET = 'hunter2-secret-value';
const EDIT = { file: 'shop/pricing.py', search: 'if units > 10:', replace: 'if units >= 10:', content: null };
const answer = (rationale = 'the bound is inclusive') => ({
  verdict: 'edits',
  rationale,
  edits: [EDIT],
  bug: null,
  diagnosis: null,
});

function fixer(options: Record<string, unknown> = {}, resume = true) {
  const settings = resolveLlmSettings(LlmOptionsSchema.parse({ apiKey: KEY, ...options }), {
    configDir: process.cwd(),
    env: { SHOP_DB_PASSWORD: SECRET },
    defaults: { apiKeyEnv: 'TEAM_API_KEY', maxOutputTokens: 4000 },
  });
  const site: CallSite = {
    endpoint: server.url,
    path: '/chat/completions',
    model: settings.model ?? 'team-model',
    retries: 0,
    timeoutMs: settings.timeoutMs,
    key: settings.apiKey,
    keyFix: 'set TEAM_API_KEY to a valid key',
    selfHosted: true,
  };
  return llmFixer({
    name: '@suture/llm-team',
    settings,
    transport: chatTransport(site, KEY),
    resume,
    doctor: async () => [{ name: 'team', status: 'ok', message: 'fine' }],
  });
}
const attempt2 = (outcome: string, over: Partial<FixRequest> = {}): FixRequest => {
  const history: AttemptSummary[] = [
    {
      attempt: 1,
      fixer: '@suture/llm-team',
      verdict: 'failed-validation',
      rationale: 'r',
      diff: '',
      outcome,
    },
  ];
  return sampleFixRequest({ attempt: 2, history, ...over });
};
async function failure(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('the proposal did not fail');
}

describe('llmFixer', () => {
  it('is a fixer named after its package, with the doctor of its package', async () => {
    const f = fixer();
    expect(f).toMatchObject({ name: '@suture/llm-team', apiVersion: 1 });
    expect(await f.doctor!()).toEqual([{ name: 'team', status: 'ok', message: 'fine' }]);
  });

  it('sends the redacted prompt with the answer instruction, and returns the proposal with its priced usage', async () => {
    server.script({
      kind: 'call',
      answer: answer(`not ${KEY}`),
      model: 'team-model-2025',
      input: 1e6,
      output: 1e6,
    });
    const leaky = sampleFixRequest({
      failure: { ...sampleFixRequest().failure, evidence: `login failed for ${SECRET} with ${KEY}` },
    });
    const proposal = await fixer({
      model: 'team-model',
      prices: { 'team-model': { input: 1, output: 3 } },
    }).propose(leaky, sampleFixerContext());
    const [sent] = server.requests;
    const text = JSON.stringify(sent!.body.messages);
    expect(text).toContain('login failed for [REDACTED] with [REDACTED]');
    expect(text).toContain('Answer by calling propose_fix.');
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain(KEY);
    expect(sent!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(proposal).toMatchObject({
      verdict: 'edits',
      rationale: 'not [REDACTED]',
      edits: [{ file: 'shop/pricing.py', search: 'if units > 10:', replace: 'if units >= 10:' }],
      usage: { model: 'team-model-2025', inputTokens: 1e6, outputTokens: 1e6, costUsd: 4, calls: 1 },
    });
  });

  it("continues a failure group's conversation with a follow-up, and starts afresh for another failure", async () => {
    const f = fixer();
    server.script(
      { kind: 'call', answer: answer() },
      { kind: 'call', answer: answer() },
      { kind: 'call', answer: answer() },
    );
    await f.propose(sampleFixRequest(), sampleFixerContext());
    await f.propose(attempt2('AssertionError: assert 0.15 == 0.1'), sampleFixerContext());
    await f.propose(
      sampleFixRequest({ failure: { ...sampleFixRequest().failure, id: 'shop:f2' } }),
      sampleFixerContext(),
    );
    const [one, two, three] = server.requests.map((r) => r.body.messages);
    expect(two!.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(two!.slice(0, 2)).toEqual(one);
    expect(two![3]!.content).toMatch(/^This is attempt 2 of 3 on the same failure/);
    expect(two![3]!.content).toContain('What happened:\n\n```text\nAssertionError: assert 0.15 == 0.1');
    expect(three!.map((m) => m.role)).toEqual(['system', 'user']);
  });

  it('sends every attempt whole when conversations are off, or after the transport ended one', async () => {
    server.script({ kind: 'call', answer: answer() }, { kind: 'call', answer: answer() });
    const off = fixer({}, false);
    await off.propose(sampleFixRequest(), sampleFixerContext());
    await off.propose(attempt2('still failing'), sampleFixerContext());
    expect(server.requests[1]!.body.messages).toHaveLength(2);
    expect(server.requests[1]!.body.messages[1]!.content).toContain('def discount(units):');

    const ended = fixer();
    server.script({ kind: 'text', text: 'Looks fine.' }, { kind: 'call', answer: answer() });
    await failure(ended.propose(sampleFixRequest(), sampleFixerContext()));
    await ended.propose(attempt2('still failing'), sampleFixerContext());
    expect(server.requests[3]!.body.messages).toHaveLength(2);
  });

  it('makes a reply without an answer a FixerError with the usage', async () => {
    server.script({ kind: 'text', text: `It is fine, ${SECRET}.` });
    const error = await failure(fixer().propose(sampleFixRequest(), sampleFixerContext()));
    expect(error).toBeInstanceOf(FixerError);
    expect(error.message).toBe(
      'the model "team-model" answered in plain text instead of calling propose_fix: It is fine, [REDACTED].',
    );
    expect((error as FixerError).usage).toMatchObject({ calls: 1, inputTokens: 1000, outputTokens: 100 });
  });

  it('sends an answer that breaks the proposal rules back to the model, in its conversation, and counts the call', async () => {
    server.script(
      { kind: 'call', answer: { ...answer(), verdict: 'product-bug' } },
      { kind: 'call', answer: answer() },
    );
    const proposal = await fixer().propose(sampleFixRequest(), sampleFixerContext());
    expect(proposal).toMatchObject({ verdict: 'edits', usage: { calls: 2, inputTokens: 2000 } });
    const [, second] = server.requests.map((r) => r.body.messages);
    expect(second!.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(second![3]!.content).toBe(
      'Your answer could not be used: the model answered product-bug without a bug report. Nothing was applied. Answer again with the complete proposal, following the schema exactly.',
    );
  });

  it('gives up after answerRetries re-asks with a FixerError naming the model and the tries', async () => {
    const bad = { kind: 'call' as const, answer: { ...answer(), verdict: 'product-bug' } };
    server.script(bad, bad, bad);
    const error = await failure(
      fixer({ answerRetries: 2 }).propose(sampleFixRequest(), sampleFixerContext()),
    );
    expect(error).toBeInstanceOf(FixerError);
    expect(error.message).toBe(
      'the model answered product-bug without a bug report (model "team-model"); 2 re-asks failed too (the fixer option "answerRetries")',
    );
    expect((error as FixerError).usage?.calls).toBe(3);
    server.script(bad);
    const once = await failure(fixer({ answerRetries: 0 }).propose(sampleFixRequest(), sampleFixerContext()));
    expect(once.message).toBe('the model answered product-bug without a bug report (model "team-model")');
    expect(server.requests).toHaveLength(4);
  });

  it('passes on a failed call as the Error it is, with secrets masked', async () => {
    server.script({ kind: 'error', status: 503, message: `overloaded; your key ${KEY}` });
    const error = await failure(fixer().propose(sampleFixRequest(), sampleFixerContext()));
    expect(error).not.toBeInstanceOf(FixerError);
    expect(error.message).toBe(
      `${server.url}/chat/completions failed with 503 (overloaded; your key [REDACTED]): the server is in trouble; re-run later`,
    );
  });
});

describe('bufferedFetch', () => {
  it('keeps a body that stalls after the headers under the timeout, where fetch resolves', async () => {
    server.script({ kind: 'stall' }, { kind: 'stall' });
    const request = { method: 'POST', body: '{"model":"m","messages":[]}' };
    const plain = await fetch(`${server.url}/chat/completions`, {
      ...request,
      signal: AbortSignal.timeout(300),
    });
    expect(plain.status).toBe(200);
    await expect(
      bufferedFetch(`${server.url}/chat/completions`, { ...request, signal: AbortSignal.timeout(300) }),
    ).rejects.toThrow(/timeout|aborted/i);
  });
});
