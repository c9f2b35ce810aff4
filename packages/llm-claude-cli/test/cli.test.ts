import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FIXER_SYSTEM_PROMPT, llmAnswerJsonSchema } from '@suture/core/llm';
import { FixerError, type FixerContext, type FixRequest, type Usage } from '@suture/core';
import { sampleFixRequest, silentLogger } from '@suture/core/testing';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import claude from '../src/index.js';
import type { ClaudeOptions } from '../src/options.js';
import { failedAttempt } from '../src/test-support/fix-request.js';
import { bugAnswer, editAnswer } from './support/answers.js';
import { claudeBinary, isolatedEnv, removeHomes, TEST_MODEL } from './support/claude.js';
import {
  messagesOf,
  startMockAnthropic,
  textOf,
  type LoggedRequest,
  type MockAnthropic,
} from './support/mock-anthropic.js';

// The real claude binary against a local Messages API: every call here runs claude end to end.
let mock: MockAnthropic;
let root: string;
const PRICING = 'def discount(units):\n    if units > 10:\n        return 0.1\n    return 0\n';

beforeAll(async () => {
  mock = await startMockAnthropic();
});
afterAll(async () => {
  await mock.close();
  removeHomes();
});
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'suture-claude-project-'));
  mkdirSync(join(root, 'shop'));
  writeFileSync(join(root, 'shop', 'pricing.py'), PRICING);
});
afterEach(() => {
  mock.requests.length = 0;
  expect(mock.pending()).toBe(0);
  rmSync(root, { recursive: true, force: true });
});

function fixer(options: ClaudeOptions = {}) {
  return claude({
    command: claudeBinary(),
    model: TEST_MODEL,
    retries: 0,
    env: isolatedEnv(mock.url),
    ...options,
  });
}
function ctx(signal = new AbortController().signal): FixerContext {
  return { signal, logger: silentLogger, root };
}
function request(over: Partial<FixRequest> = {}): FixRequest {
  return sampleFixRequest({ project: { name: 'shop', root, language: 'python' }, ...over });
}
async function failure(promise: Promise<unknown>): Promise<FixerError | Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('the proposal did not fail');
}
const sessionOf = (r: LoggedRequest): string | undefined => r.headers['x-claude-code-session-id'];
const GOOD = editAnswer('shop/pricing.py', 'if units > 10:', 'if units >= 10:');

describe('cli mode against the real claude', () => {
  it('proposes the structured answer without tools, with its own short system prompt and no title call', async () => {
    mock.enqueue({ kind: 'tool', input: GOOD });
    // a user's environment: non-essential traffic (the session title) is not turned off
    const { CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: _left, ...env } = isolatedEnv(mock.url);
    delete process.env.CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC;
    const proposal = await fixer({ env }).propose(request(), ctx());

    expect(proposal).toMatchObject({
      verdict: 'edits',
      edits: [{ file: 'shop/pricing.py', search: 'if units > 10:', replace: 'if units >= 10:' }],
    });
    expect(proposal.usage).toMatchObject({ model: TEST_MODEL, calls: 1 });
    // claude marks its prompt for the cache: the first call writes it
    const usage = proposal.usage as Usage;
    expect(usage.inputTokens + usage.cacheWriteTokens).toBeGreaterThan(0);
    expect(proposal.usage!.outputTokens).toBeGreaterThan(0);
    expect(proposal.usage!.costUsd).toBeGreaterThan(0);

    // one request to the model: no session title, no other side call
    expect(mock.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
    const [first] = mock.fixCalls();
    const tools = first!.body!.tools as Array<{ name: string; input_schema: unknown }>;
    expect(tools.map((t) => t.name)).toEqual(['StructuredOutput']);
    expect(tools[0]!.input_schema).toEqual(llmAnswerJsonSchema());
    expect(first!.body!.model).toBe(TEST_MODEL);
    const system = (first!.body!.system as Array<{ text: string }>).map((b) => b.text).join('\n');
    expect(system).toContain(FIXER_SYSTEM_PROMPT.split('\n')[0]);
    expect(system).toContain('You have no tools');
    // claude's own 6,000-character agent prompt (with its Write and Bash instructions) is not sent
    expect(system).not.toContain('Claude Code');
    expect(system.length).toBeLessThan(FIXER_SYSTEM_PROMPT.length + 600);
    expect(textOf(first!)).toContain('E       assert 0 == 0.1');
    expect(textOf(first!)).toContain('def discount(units):');
  });

  it('continues one session across the attempts on a failure, and starts another for a new failure', async () => {
    const f = fixer();
    mock.enqueue({ kind: 'tool', input: editAnswer('shop/pricing.py', 'return 0.1', 'return 0.15') });
    await f.propose(request(), ctx());
    mock.enqueue({ kind: 'tool', input: GOOD });
    const second = await f.propose(
      request({ attempt: 2, history: [failedAttempt(1, 'AssertionError: assert 0 == 0.1 (still failing)')] }),
      ctx(),
    );
    expect(second).toMatchObject({ verdict: 'edits', edits: [{ replace: 'if units >= 10:' }] });

    const [one, two] = mock.fixCalls();
    expect(sessionOf(two!)).toBe(sessionOf(one!));
    // the resumed request replays the first attempt: its prompt and the answer the model gave
    const replayed = textOf(two!);
    expect(replayed).toContain('E       assert 0 == 0.1');
    expect(replayed).toContain('return 0.15');
    const last = messagesOf(two!).at(-1)!;
    const followUp =
      typeof last.content === 'string' ? last.content : last.content.map((b) => b.text ?? '').join('');
    expect(followUp).toMatch(/^This is attempt 2 of 3 on the same failure/);
    expect(followUp).toContain('What happened:\n\n```text\nAssertionError: assert 0 == 0.1 (still failing)');
    expect(followUp).not.toContain('def discount(units):');

    mock.enqueue({ kind: 'tool', input: GOOD });
    const other = request({
      failure: {
        ...request().failure,
        id: 'shop:f2',
        title: 'NameError: name totl is not defined',
        evidence: "NameError: name 'totl' is not defined",
      },
    });
    await f.propose(other, ctx());
    const three = mock.fixCalls()[2]!;
    expect(sessionOf(three)).not.toBe(sessionOf(one!));
    expect(textOf(three)).not.toContain('return 0.15');
    expect(textOf(three)).toContain("NameError: name 'totl' is not defined");
  });

  it('starts a new session with the whole prompt when claude lost the old one', async () => {
    const env = isolatedEnv(mock.url);
    const f = fixer({ env });
    mock.enqueue({ kind: 'tool', input: GOOD });
    await f.propose(request(), ctx());
    rmSync(join(env.CLAUDE_CONFIG_DIR!, 'projects'), { recursive: true, force: true });
    mock.enqueue({ kind: 'tool', input: GOOD });
    await f.propose(request({ attempt: 2, history: [failedAttempt(1, 'still failing')] }), ctx());
    const [one, two] = mock.fixCalls();
    expect(sessionOf(two!)).not.toBe(sessionOf(one!));
    expect(textOf(two!)).toContain('def discount(units):');
    expect(textOf(two!)).toContain('still failing');
  });

  it('redacts secrets only the fixer knows (its env and apiKey options) before anything is sent', async () => {
    const password = 'pw-only-the-fixer-knows-42';
    const key = 'sk-ant-config-key-0123456789';
    const env = { ...isolatedEnv(mock.url), SHOP_DB_PASSWORD: password };
    mock.enqueue({
      kind: 'tool',
      input: { ...GOOD, rationale: `the login with ${password} is not the cause` },
    });
    const leaky = request({
      failure: {
        ...request().failure,
        evidence: `E   ConnectionError: login failed for ${password} with key ${key}`,
      },
    });
    const proposal = await fixer({ env, apiKey: key }).propose(leaky, ctx());
    const sent = JSON.stringify(mock.requests.map((r) => r.body));
    expect(sent).toContain('E   ConnectionError: login failed for [REDACTED] with key [REDACTED]');
    expect(sent).not.toContain(password);
    expect(sent).not.toContain(key);
    // the key still authenticates the call
    expect(mock.fixCalls()[0]!.headers['x-api-key']).toBe(key);
    // and what the model answered reaches the report masked
    expect(proposal).toMatchObject({ rationale: 'the login with [REDACTED] is not the cause' });
  });

  it('keeps the files as they were when the model tries to write', async () => {
    mock.enqueue(
      {
        kind: 'tool',
        name: 'Write',
        input: { file_path: join(root, 'shop', 'pricing.py'), content: 'hacked\n' },
      },
      { kind: 'tool', input: GOOD },
    );
    await fixer({ tools: 'read' }).propose(request(), ctx());
    expect(readFileSync(join(root, 'shop', 'pricing.py'), 'utf8')).toBe(PRICING);
    expect(textOf(mock.fixCalls()[1]!)).toMatch(/No such tool available: Write/);
  });

  it('counts one call per claude -p, whatever turns claude took in it, and one for a resumed session', async () => {
    const f = fixer({ tools: 'read' });
    mock.enqueue(
      { kind: 'tool', name: 'Read', input: { file_path: join(root, 'shop', 'pricing.py') } },
      { kind: 'tool', input: editAnswer('shop/pricing.py', 'return 0.1', 'return 0.15') },
    );
    const first = await f.propose(request(), ctx());
    mock.enqueue({ kind: 'tool', input: GOOD });
    const second = await f.propose(
      request({ attempt: 2, history: [failedAttempt(1, 'AssertionError: assert 0 == 0.1 (still failing)')] }),
      ctx(),
    );
    // three requests to the model in two claude -p runs, the second resuming the first's session
    expect(mock.fixCalls()).toHaveLength(3);
    expect(sessionOf(mock.fixCalls()[2]!)).toBe(sessionOf(mock.fixCalls()[0]!));
    expect(first.usage).toMatchObject({ calls: 1 });
    expect(second.usage).toMatchObject({ calls: 1 });
  });

  it('passes on a product-bug verdict with its report', async () => {
    mock.enqueue({
      kind: 'tool',
      input: bugAnswer('discount() skips exactly 10 units', 'shop/pricing.py', 'discount'),
    });
    const proposal = await fixer().propose(
      request({ policy: { ...request().policy, editable: 'tests' } }),
      ctx(),
    );
    expect(proposal).toMatchObject({
      verdict: 'product-bug',
      bug: { summary: 'discount() skips exactly 10 units', file: 'shop/pricing.py', symbol: 'discount' },
    });
    expect(textOf(mock.fixCalls()[0]!)).toContain('If the code under test is wrong, answer `product-bug`');
  });
});

describe('cli mode: each bad input is a failed attempt with a reason', () => {
  it('a model that answers in plain text, after claude reminded it once', async () => {
    mock.enqueue(
      { kind: 'text', text: 'The discount looks fine to me.' },
      { kind: 'text', text: 'Really, it is fine.' },
    );
    const error = await failure(fixer().propose(request(), ctx()));
    expect(error).toBeInstanceOf(FixerError);
    expect(error.message).toBe(
      `the model "${TEST_MODEL}" answered in plain text instead of calling the StructuredOutput tool: Really, it is fine.`,
    );
    expect((error as FixerError).usage).toMatchObject({ calls: 1, model: TEST_MODEL });
    expect((error as FixerError).usage!.costUsd).toBeGreaterThan(0);
    expect(textOf(mock.fixCalls()[1]!)).toContain('[structured-output-enforce]');
  });

  it('an answer that fails the schema claude checks, re-asked answerRetries times and counted', async () => {
    const bad = { kind: 'tool' as const, input: { verdict: 'fixed', files: ['a.py'] } };
    mock.enqueue(bad, bad);
    const error = await failure(fixer().propose(request(), ctx()));
    expect(error.message).toBe(
      'the model gave no answer that fits the proposal schema in 2 requests (1 + the fixer option "answerRetries")',
    );
    // one claude -p, which asked the model twice itself
    expect((error as FixerError).usage).toMatchObject({ calls: 1 });
    expect(mock.fixCalls()).toHaveLength(2);
    mock.enqueue(bad);
    const once = await failure(fixer({ answerRetries: 0 }).propose(request(), ctx()));
    expect(once.message).toBe(
      'the model gave no answer that fits the proposal schema in 1 request (1 + the fixer option "answerRetries")',
    );
    expect(mock.fixCalls()).toHaveLength(3);
  });

  it('an answer that passes the JSON Schema but not the proposal rules', async () => {
    mock.enqueue({ kind: 'tool', input: { ...GOOD, verdict: 'product-bug', edits: [] } });
    const error = await failure(fixer().propose(request(), ctx()));
    expect(error.message).toBe(`the model answered product-bug without a bug report (model "${TEST_MODEL}")`);
    expect((error as FixerError).usage!.calls).toBe(1);
  });

  it('rate limits (429) that outlast the retries', async () => {
    mock.enqueue(
      { kind: 'error', status: 429, message: 'slow down' },
      { kind: 'error', status: 429, message: 'slow down' },
    );
    const error = await failure(fixer({ retries: 1 }).propose(request(), ctx()));
    expect(error.message).toBe(
      `rate limited by ${mock.url} after 1 retry (429: API Error: Request rejected (429) · slow down): re-run later, raise the fixer option "retries", or lower "concurrency"`,
    );
    expect(mock.fixCalls()).toHaveLength(2);
  });

  it('a refusal', async () => {
    mock.enqueue({ kind: 'text', text: 'I will not help with that.', stopReason: 'refusal' });
    const error = await failure(fixer().propose(request(), ctx()));
    expect(error.message).toMatch(new RegExp(`^the model "${TEST_MODEL}" refused to answer: `));
  });

  it('a model that keeps reading past maxTurns', async () => {
    mock.enqueue({ kind: 'tool', name: 'Read', input: { file_path: join(root, 'shop', 'pricing.py') } });
    const error = await failure(fixer({ tools: 'read', maxTurns: 1 }).propose(request(), ctx()));
    expect(error.message).toBe('claude used its 1 turn without answering; raise the fixer option "maxTurns"');
  });

  it('claude not logged in, with no key', async () => {
    const error = await failure(
      fixer({ env: isolatedEnv(mock.url, { ANTHROPIC_API_KEY: null }) }).propose(request(), ctx()),
    );
    expect(error.message).toBe(
      'claude is not logged in: run `claude /login` (or `claude setup-token` for CI) or set ANTHROPIC_API_KEY',
    );
    expect(error).not.toHaveProperty('usage.calls', 1);
    expect(mock.fixCalls()).toHaveLength(0);
  });

  it('claude not installed', async () => {
    const missing = await failure(fixer({ command: '/nonexistent/bin/claude' }).propose(request(), ctx()));
    expect(missing.message).toBe(
      'the claude CLI is not at /nonexistent/bin/claude: install it with `npm i -g @anthropic-ai/claude-code`, or set the fixer option "command" to its path',
    );
    const offPath = await failure(fixer({ command: 'claude-not-installed-here' }).propose(request(), ctx()));
    expect(offPath.message).toMatch(
      /^the claude CLI \(`claude-not-installed-here`\) is not on PATH: install it with `npm i -g @anthropic-ai\/claude-code`/,
    );
  });

  it('a call that hangs, started again once, then given up', async () => {
    mock.enqueue({ kind: 'hang' }, { kind: 'hang' });
    const error = await failure(fixer({ timeoutMs: 8_000, timeoutRetries: 1 }).propose(request(), ctx()));
    expect(error.message).toBe(
      'no reply from claude within 8 s after 1 retry: check the network (and ANTHROPIC_BASE_URL), or raise the fixer option "timeoutMs"; a call that runs out its time limit opens the breaker, so this fixer is skipped for the rest of the run (the fixer option "circuitBreaker")',
    );
    expect((error as FixerError).usage).toMatchObject({ calls: 2 });
    expect(mock.fixCalls()).toHaveLength(2);
  }, 120_000);

  it('a gate that is interrupted kills claude', async () => {
    mock.enqueue({ kind: 'hang' });
    const abort = new AbortController();
    const pending = fixer().propose(request(), ctx(abort.signal));
    while (mock.fixCalls().length === 0) await new Promise((r) => setTimeout(r, 50));
    abort.abort();
    const error = await failure(pending);
    expect(error.message).toBe('the run was interrupted while claude was working');
    // claude's process group was killed, which closed its connection to the API
    while (mock.openResponses() > 0) await new Promise((r) => setTimeout(r, 50));
  });
});
