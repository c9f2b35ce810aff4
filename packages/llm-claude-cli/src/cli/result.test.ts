import { readFileSync } from 'node:fs';
import { answerToProposal } from '@suture/core/llm';
import { describe, expect, it } from 'vitest';
import { findCliResult, interpretResult, usageOfResult, type CliResult } from './result.js';
import { cliSite } from './site.js';

/** Results printed by the real claude 2.1.197 (`-p --output-format json --json-schema`) against the mock API. */
function captured(name: string): string {
  return readFileSync(new URL(`./__fixtures__/${name}.json`, import.meta.url), 'utf8');
}
function result(name: string): CliResult {
  const found = findCliResult(captured(name));
  if (!found) throw new Error(`no result in ${name}.json`);
  return found;
}
const options = {
  apiKey: undefined,
  apiKeyEnv: 'ANTHROPIC_API_KEY',
  model: 'claude-sonnet-4-6',
  retries: 2,
  timeoutMs: 180_000,
};
const env = { ANTHROPIC_BASE_URL: 'http://127.0.0.1:4010', ANTHROPIC_API_KEY: 'sk-ant-test-key' };
const limits = { maxTurns: 12, maxBudgetUsd: 0.5, site: cliSite(options, env) };
const reason = (name: string, exitCode: number | null = 1): string => {
  const r = interpretResult(result(name), exitCode, limits);
  if (r.ok) throw new Error(`${name} was read as a success`);
  return r.reason;
};

describe('findCliResult', () => {
  it('takes the result line out of output mixed with stderr', () => {
    const output = `warning: something on stderr\n${captured('success')}\n`;
    expect(findCliResult(output)?.session_id).toBe('947516de-1dcc-49c0-90ac-a0cd22e71952');
  });

  it('finds nothing in plain-text errors and in other JSON', () => {
    expect(findCliResult('Error: Invalid session ID. Must be a valid UUID.\n')).toBeUndefined();
    expect(
      findCliResult('No conversation found with session ID: 6b465362-8535-4314-ba04-312104b3ca4b\n'),
    ).toBeUndefined();
    expect(findCliResult('{"type":"system","subtype":"init","result":"x"}\n')).toBeUndefined();
    expect(findCliResult('{"type":"result", truncated')).toBeUndefined();
  });
});

describe('interpretResult', () => {
  it('returns the structured output of a successful call, which makes a proposal', () => {
    const r = interpretResult(result('success'), 0, limits);
    expect(r).toEqual({ ok: true, answer: expect.objectContaining({ verdict: 'edits' }) });
    const parsed = answerToProposal(r.ok ? r.answer : undefined);
    expect(parsed).toMatchObject({
      ok: true,
      proposal: {
        verdict: 'edits',
        edits: [{ file: 'a.py', search: 'return a - b', replace: 'return a + b' }],
      },
    });
  });

  it('fails a success without structured_output (the model answered in plain text)', () => {
    const r = result('plain-text');
    expect(r.subtype).toBe('success');
    expect(r.is_error).toBe(false);
    expect(r.structured_output).toBeUndefined();
    expect(reason('plain-text', 0)).toBe(
      'the model "claude-sonnet-4-6" answered in plain text instead of calling the StructuredOutput tool: still text',
    );
  });

  it('reads "not logged in" from is_error although subtype says success', () => {
    expect(result('not-logged-in').subtype).toBe('success');
    expect(reason('not-logged-in')).toBe(
      'claude is not logged in: run `claude /login` (or `claude setup-token` for CI) or set ANTHROPIC_API_KEY',
    );
  });

  it('says what to do about a rejected key, a rate limit and a server error', () => {
    expect(reason('invalid-key')).toBe(
      'http://127.0.0.1:4010 refused the API key from $ANTHROPIC_API_KEY (401: Invalid API key · Fix external API key): set ANTHROPIC_API_KEY to a valid key',
    );
    expect(reason('rate-limited')).toBe(
      'rate limited by http://127.0.0.1:4010 after 2 retries (429: API Error: Request rejected (429) · mock rate limited): re-run later, raise the fixer option "retries", or lower "concurrency"',
    );
    expect(reason('server-error')).toMatch(
      /^http:\/\/127\.0\.0\.1:4010\/v1\/messages failed with 500 after 2 retries \(API Error: 500 boom/,
    );
  });

  it("says how to log in when the API refuses claude's login, and names a key from apiKeyEnv", () => {
    const login = cliSite(options, { ANTHROPIC_BASE_URL: 'http://127.0.0.1:4010' });
    expect(interpretResult(result('invalid-key'), 1, { ...limits, site: login })).toEqual({
      ok: false,
      noReply: true,
      reason:
        "http://127.0.0.1:4010 refused the API key from claude's login (401: Invalid API key · Fix external API key): run `claude /login` (or `claude setup-token` for CI) or set ANTHROPIC_API_KEY",
    });
    const team = cliSite({ ...options, apiKeyEnv: 'TEAM_KEY' }, { ...env, TEAM_KEY: 'sk-ant-team' });
    expect(team).toMatchObject({
      key: { source: '$TEAM_KEY' },
      keyFix: 'set TEAM_KEY to a valid key (option "apiKeyEnv")',
      selfHosted: true,
    });
    expect(cliSite(options, {})).toMatchObject({ endpoint: 'https://api.anthropic.com', selfHosted: false });
  });

  it('explains the error subtypes, which have no result key', () => {
    for (const name of ['max-turns', 'schema-retries', 'budget']) expect(result(name).result).toBeUndefined();
    expect(reason('max-turns')).toBe(
      'claude used its 12 turns without answering; raise the fixer option "maxTurns"',
    );
    expect(reason('schema-retries')).toBe(
      "the model's answer failed the proposal schema every time claude asked again (Failed to provide valid structured output after 5 attempts)",
    );
    expect(reason('budget')).toBe(
      'claude reached the spending limit of $0.5 of one call before answering (the fixer option "maxBudgetUsd")',
    );
  });

  it('names an API claude could not reach (it retried within the call)', () => {
    expect(reason('unreachable')).toBe(
      'cannot connect to http://127.0.0.1:4010/v1/messages after 2 retries (ConnectionRefused): is the server at http://127.0.0.1:4010 running?',
    );
  });

  it('marks an API error as no reply from the model (the circuit breaker counts it), never an answer it gave', () => {
    const noReply = (name: string): boolean | undefined => {
      const r = interpretResult(result(name), 1, limits);
      return r.ok ? undefined : (r.noReply ?? false);
    };
    for (const name of ['unreachable', 'server-error', 'rate-limited', 'invalid-key', 'not-logged-in'])
      expect(noReply(name), name).toBe(true);
    for (const name of ['refusal', 'max-turns', 'schema-retries', 'budget', 'plain-text'])
      expect(noReply(name), name).toBe(false);
  });

  it('tells a refusal from other errors', () => {
    expect(reason('refusal')).toMatch(
      /^the model "claude-sonnet-4-6" refused to answer: API Error: Claude Code is unable to respond to this request/,
    );
  });

  it('does not trust a non-zero exit code even when is_error is false', () => {
    expect(interpretResult(result('success'), 1, limits)).toEqual({
      ok: false,
      reason: expect.stringMatching(/^claude failed \(success, exit code 1\)/),
    });
  });
});

describe('usageOfResult', () => {
  it('takes tokens from modelUsage, the cost from total_cost_usd, and one call for the one claude -p', () => {
    expect(usageOfResult(result('success'), 4200)).toEqual({
      model: 'claude-sonnet-4-6',
      inputTokens: 13342,
      outputTokens: 86,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
      costUsd: 0.041316,
      // three turns (a Read, the answer, the turn the structured answer ends) in one claude -p
      calls: 1,
      durationMs: 4200,
    });
  });

  it('counts the tokens of a call the budget stopped, which only modelUsage has', () => {
    const r = result('budget');
    expect(r.usage?.input_tokens).toBe(0);
    expect(usageOfResult(r, 1)).toMatchObject({ inputTokens: 1_000_000, costUsd: 3.000345, calls: 1 });
  });

  it('counts no call when the API was never reached', () => {
    expect(usageOfResult(result('not-logged-in'), 1, 'sonnet')).toMatchObject({
      model: 'sonnet',
      calls: 0,
      costUsd: 0,
      inputTokens: 0,
    });
    expect(usageOfResult(result('rate-limited'), 1)).toMatchObject({ calls: 0, costUsd: 0 });
  });

  it('falls back to usage and names the model with the most tokens', () => {
    const base = result('success');
    const noModels = {
      ...base,
      modelUsage: undefined,
      usage: {
        input_tokens: 10,
        output_tokens: 5,
        cache_read_input_tokens: 3,
        cache_creation_input_tokens: 2,
      },
    };
    expect(usageOfResult(noModels, 1, 'opus')).toMatchObject({
      model: 'opus',
      inputTokens: 10,
      outputTokens: 5,
      cacheReadTokens: 3,
      cacheWriteTokens: 2,
    });
    const two = {
      ...base,
      modelUsage: {
        'claude-haiku-4-5': { inputTokens: 300, outputTokens: 20 },
        'claude-opus-4-8[1m]': { inputTokens: 9000, outputTokens: 700 },
      },
    };
    expect(usageOfResult(two, 1)).toMatchObject({
      model: 'claude-opus-4-8[1m]',
      inputTokens: 9300,
      outputTokens: 720,
    });
  });
});
