import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ConfigInput, FailureReport, GateReport } from '@suture/core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ClaudeOptions } from '../../../src/options.js';
import { bugAnswer, editAnswer } from '../../support/answers.js';
import { claudeBinary, isolatedEnv, removeHomes, TEST_MODEL } from '../../support/claude.js';
import {
  conversationOf,
  messagesOf,
  startMockAnthropic,
  textOf,
  type MockAnthropic,
} from '../../support/mock-anthropic.js';
import { cleanup, gate, sandbox, untouched } from './support.js';

// The whole gate, loaded from a suture.config.json, on a real pytest project, with the real
// claude binary talking to the local Messages API.
let mock: MockAnthropic;
beforeAll(async () => {
  mock = await startMockAnthropic();
});
afterAll(async () => {
  await mock.close();
  await cleanup();
  removeHomes();
});
beforeEach(() => {
  mock.requests.length = 0;
});

const TEST = 'tests/test_pricing.py::test_discount_at_ten_units';
const RIGHT = editAnswer('shop/pricing.py', 'if units > 10:', 'if units >= 10:');
const WRONG = editAnswer('shop/pricing.py', 'return 0.10', 'return 0.15', 'the discount rate is too low');

function config(claude: ClaudeOptions, over: Partial<ConfigInput> = {}): ConfigInput {
  return {
    projects: [{ name: 'shop', root: 'app', runner: 'pytest' }],
    fixers: [
      [
        'claude',
        { command: claudeBinary(), model: TEST_MODEL, retries: 0, env: isolatedEnv(mock.url), ...claude },
      ],
    ],
    heal: { maxAttempts: 3, flakyReruns: 0 },
    reporters: ['json', 'bugs', 'patch'],
    ...over,
  };
}
const failureOf = (report: GateReport): FailureReport =>
  report.projects[0]!.failures.find((f) => f.failure.tests.includes(TEST))!;
const sum = (report: GateReport, key: 'calls' | 'inputTokens' | 'outputTokens' | 'costUsd'): number =>
  report.projects
    .flatMap((p) => p.failures.flatMap((f) => f.attempts))
    .reduce((n, a) => n + (a.usage?.[key] ?? 0), 0);

describe('the gate with the claude fixer', () => {
  it('heals in two attempts that share one claude session, and reports the usage', async () => {
    const box = await sandbox(config({}));
    mock.enqueue({ kind: 'tool', input: WRONG }, { kind: 'tool', input: RIGHT });
    const { report, json, runDir } = await gate(box);

    const f = failureOf(report);
    expect(f.outcome).toBe('healed');
    expect(f.attempts.map((a) => [a.fixer, a.verdict])).toEqual([
      ['@suture/llm-claude-cli', 'failed-validation'],
      ['@suture/llm-claude-cli', 'healed'],
    ]);

    // the second attempt resumed the first one's session: same session id, and its request
    // replays the first conversation before the follow-up
    const [first, second] = mock.fixCalls();
    expect(mock.fixCalls()).toHaveLength(2);
    expect(second!.headers['x-claude-code-session-id']).toBe(first!.headers['x-claude-code-session-id']);
    const replayed = conversationOf(first!);
    expect(conversationOf(second!).slice(0, replayed.length)).toEqual(replayed);
    expect(textOf(second!)).toContain('return 0.15');
    const followUp = JSON.stringify(messagesOf(second!).at(-1));
    expect(followUp).toContain('This is attempt 2 of 3 on the same failure');
    expect(followUp).toContain('+        return 0.15');

    // usage lands in each attempt and in the totals of report.json
    for (const a of f.attempts) expect(a.usage).toMatchObject({ model: TEST_MODEL, calls: 1 });
    expect(json.totals).toMatchObject({
      healed: 1,
      llmCalls: 2,
      inputTokens: sum(report, 'inputTokens'),
      outputTokens: sum(report, 'outputTokens'),
    });
    // claude marks its prompts for the cache: what is not read from it is input or written to it
    expect(json.totals.inputTokens + json.totals.cacheWriteTokens).toBeGreaterThan(0);
    expect(json.totals.costUsd).toBeGreaterThan(0);
    // the totals are kept to the millionth of a dollar
    expect(json.totals.costUsd).toBe(Math.round(sum(report, 'costUsd') * 1e6) / 1e6);

    expect(await untouched(box)).toBe(true);
    expect(await readFile(join(runDir, 'fixes.patch'), 'utf8')).toContain('+    if units >= 10:');
  });

  it('writes a product-bug verdict to bug_report.json when the policy forbids editing the code', async () => {
    // the team's own logic template, named relative to the config file
    const box = await sandbox(
      config(
        { prompts: { logic: 'prompts/logic.md' } },
        { heal: { maxAttempts: 3, flakyReruns: 0, editable: 'tests' } },
      ),
    );
    mock.enqueue({
      kind: 'tool',
      input: bugAnswer(
        'bulk_discount gives no discount at exactly 10 units',
        'shop/pricing.py',
        'bulk_discount',
      ),
    });
    const { report, json, runDir } = await gate(box);

    expect(failureOf(report)).toMatchObject({
      outcome: 'product-bug',
      attempts: [{ verdict: 'product-bug', fixer: '@suture/llm-claude-cli' }],
    });
    const prompt = textOf(mock.fixCalls()[0]!);
    expect(prompt).toContain('House rules of the shop team');
    expect(prompt).toContain('You may edit only test files');
    expect(prompt).toContain('def bulk_discount(units):');
    const bugs = JSON.parse(await readFile(join(runDir, 'bug_report.json'), 'utf8')) as { bugs: unknown[] };
    expect(bugs.bugs).toEqual([
      expect.objectContaining({
        project: 'shop',
        fixer: '@suture/llm-claude-cli',
        tests: [TEST],
        summary: 'bulk_discount gives no discount at exactly 10 units',
        file: 'shop/pricing.py',
        symbol: 'bulk_discount',
      }),
    ]);
    expect(json.totals).toMatchObject({ bugs: 1, llmCalls: 1 });
    expect(await untouched(box)).toBe(true);
  });

  it('turns each bad answer into a failed attempt with a reason and leaves the tree untouched', async () => {
    const box = await sandbox(
      config({ timeoutMs: 20_000, timeoutRetries: 0 }, { heal: { maxAttempts: 6, flakyReruns: 0 } }),
    );
    mock.enqueue(
      { kind: 'text', text: 'The code looks right to me.' },
      { kind: 'text', text: 'I am sure it is right.' },
      // claude sends a schema failure back once (answerRetries 1, so --max-turns 2)
      ...Array.from({ length: 2 }, () => ({ kind: 'tool' as const, input: { verdict: 'fixed' } })),
      { kind: 'error', status: 429, message: 'mock rate limited' },
      { kind: 'text', text: 'I will not do that.', stopReason: 'refusal' },
      { kind: 'tool', input: editAnswer('shop/untouched.py', 'return 1', 'return 2') },
      { kind: 'hang' },
    );
    const { report, json } = await gate(box);

    const f = failureOf(report);
    expect(f.outcome).toBe('exhausted');
    const attempts = f.attempts.map((a) => [a.verdict, a.reason]);
    expect(attempts).toEqual([
      [
        'fixer-error',
        expect.stringContaining(
          `the model "${TEST_MODEL}" answered in plain text instead of calling the StructuredOutput tool: I am sure it is right.`,
        ),
      ],
      [
        'fixer-error',
        expect.stringContaining(
          'the model gave no answer that fits the proposal schema in 2 requests (1 + the fixer option "answerRetries")',
        ),
      ],
      ['fixer-error', expect.stringMatching(/: rate limited by http:\/\/127\.0\.0\.1:\d+ \(429: /)],
      ['fixer-error', expect.stringContaining(`the model "${TEST_MODEL}" refused to answer`)],
      ['refused', expect.stringContaining("shop/untouched.py is outside the failure's scope")],
      ['fixer-error', expect.stringContaining('no reply from claude within 20 s: check the network')],
    ]);
    // the failed calls that reached the model still count (the 429 never did), one a claude -p,
    // whatever turns claude took inside it (the second asked the model twice for a fitting answer)
    expect(f.attempts.map((a) => a.usage?.calls ?? 0)).toEqual([1, 1, 0, 1, 1, 1]);
    expect(json.totals.llmCalls).toBe(5);
    expect(json.totals.costUsd).toBeGreaterThan(0);
    expect(mock.pending()).toBe(0);
    expect(await untouched(box)).toBe(true);
  }, 240_000);

  it('goes on to the next fixer when claude is missing or not logged in', async () => {
    const box = await sandbox(
      config(
        {},
        {
          fixers: [
            ['claude', { command: '/nonexistent/bin/claude' }],
            ['claude', { command: claudeBinary(), env: isolatedEnv(mock.url, { ANTHROPIC_API_KEY: null }) }],
            './local-fixer.mjs',
          ],
        },
      ),
    );
    const { report } = await gate(box);

    const f = failureOf(report);
    expect(f.outcome).toBe('healed');
    expect(f.attempts.map((a) => [a.fixer, a.verdict, a.reason])).toEqual([
      [
        '@suture/llm-claude-cli',
        'fixer-error',
        '@suture/llm-claude-cli (suture.config.json#fixers[0]): the claude CLI is not at /nonexistent/bin/claude: install it with `npm i -g @anthropic-ai/claude-code`, or set the fixer option "command" to its path',
      ],
      [
        '@suture/llm-claude-cli',
        'fixer-error',
        '@suture/llm-claude-cli (suture.config.json#fixers[1]): claude is not logged in: run `claude /login` (or `claude setup-token` for CI) or set ANTHROPIC_API_KEY',
      ],
      ['local-fixer', 'healed', undefined],
    ]);
    expect(report.totals.llmCalls).toBe(0);
    expect(mock.fixCalls()).toHaveLength(0);
    expect(await untouched(box)).toBe(true);
  });
});
