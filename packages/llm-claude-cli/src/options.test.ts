import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findPrice } from '@suture/core/llm';
import { formatIssues } from '@suture/core/internal';
import { z } from '@suture/core';
import { describe, expect, it } from 'vitest';
import claude from './fixer.js';
import { resolveOptions } from './options.js';

function issues(options: unknown): string[] {
  try {
    resolveOptions(options, '/cfg');
  } catch (error) {
    if (error instanceof z.ZodError) return formatIssues(error, options);
    throw error;
  }
  return [];
}

describe('options', () => {
  it('defaults to cli mode without tools, a 180 s timeout, no timeout retry, few API retries and resumed sessions', () => {
    const o = resolveOptions({}, '/cfg');
    expect(o).toMatchObject({
      mode: 'cli',
      command: 'claude',
      timeoutMs: 180_000,
      timeoutRetries: 0,
      retries: 2,
      tools: 'none',
      answerRetries: 1,
      circuitBreaker: 2,
      maxTurns: 12,
      resume: true,
      bare: false,
      env: {},
    });
    expect(o.model).toBeUndefined();
    expect(o.templates.logic).toContain('{{evidence}}');
  });

  it('resolves a command path from the config folder and keeps a bare name for PATH', () => {
    expect(resolveOptions({ command: './bin/claude' }, '/cfg').command).toBe('/cfg/bin/claude');
    expect(resolveOptions({ command: '/opt/claude' }, '/cfg').command).toBe('/opt/claude');
    expect(resolveOptions({ command: 'claude-beta' }, '/cfg').command).toBe('claude-beta');
  });

  it('takes null in env as "remove this variable", and masks the key and the secrets of env', () => {
    const o = resolveOptions(
      {
        env: { ANTHROPIC_API_KEY: null, HOME: '/h', SHOP_DB_PASSWORD: 'pw-in-the-env-option' },
        apiKey: 'team-config-key-42',
      },
      '/cfg',
      {},
    );
    expect(o.env).toEqual({
      ANTHROPIC_API_KEY: undefined,
      HOME: '/h',
      SHOP_DB_PASSWORD: 'pw-in-the-env-option',
    });
    expect(o.apiKey).toEqual({
      value: 'team-config-key-42',
      source: 'the apiKey option',
      placeholder: false,
    });
    expect(o.redact('team-config-key-42, pw-in-the-env-option, /h')).toBe('[REDACTED], [REDACTED], /h');
  });

  it('takes the key from apiKeyEnv, else a bearer token from ANTHROPIC_AUTH_TOKEN', () => {
    const env = { TEAM_KEY: 'team-env-key-42', ANTHROPIC_AUTH_TOKEN: 'bearer-token-42' };
    expect(resolveOptions({ apiKeyEnv: 'TEAM_KEY' }, '/cfg', env).apiKey).toEqual({
      value: 'team-env-key-42',
      source: '$TEAM_KEY',
      placeholder: false,
    });
    expect(resolveOptions({}, '/cfg', env).apiKey).toMatchObject({
      value: 'bearer-token-42',
      source: '$ANTHROPIC_AUTH_TOKEN',
    });
    expect(resolveOptions({}, '/cfg', {}).apiKey).toBeUndefined();
    // a variable not named like a secret is still masked once it holds the key
    expect(
      resolveOptions({ apiKeyEnv: 'TEAM' }, '/cfg', { TEAM: 'plain-named-42' }).redact('plain-named-42'),
    ).toBe('[REDACTED]');
  });

  it('names the key and what was expected', () => {
    expect(issues({ mode: 'sdk' }).join('\n')).toMatch(/mode/);
    expect(issues({ timeoutMs: -1 }).join('\n')).toMatch(/timeoutMs/);
    expect(issues({ modle: 'sonnet' }).join('\n')).toMatch(/modle/);
    expect(issues({ env: { 'BAD NAME': 'x' } }).join('\n')).toMatch(/env\.BAD NAME: Invalid key/);
  });

  it('refuses a Claude Code alias as the model of api mode', () => {
    expect(issues({ mode: 'api', model: 'sonnet' }).join('\n')).toMatch(
      /"sonnet" is a Claude Code alias.*such as "claude-sonnet-4-6"/,
    );
    expect(issues({ mode: 'cli', model: 'sonnet' })).toEqual([]);
  });

  it('merges the prices option over the defaults', () => {
    const o = resolveOptions({ prices: { 'my-proxy-model': { input: 1, output: 2 } } }, '/cfg');
    expect(findPrice(o.prices, 'my-proxy-model')).toEqual({ input: 1, output: 2 });
    expect(findPrice(o.prices, 'claude-haiku-4-5-20251001')).toMatchObject({ input: 1, output: 5 });
    expect(findPrice(o.prices, 'claude-opus-4-20250514')).toMatchObject({ input: 15, output: 75 });
    expect(findPrice(o.prices, 'claude-opus-4-8')).toMatchObject({ input: 5, output: 25 });
  });

  it('reads prompt overrides relative to the config folder, and a bad path fails at load', () => {
    const dir = mkdtempSync(join(tmpdir(), 'suture-claude-options-'));
    try {
      writeFileSync(join(dir, 'logic.md'), 'Our house rules.\n\n{{evidence}}\n\n{{answer}}\n');
      expect(resolveOptions({ prompts: { logic: 'logic.md' } }, dir).templates.logic).toMatch(
        /^Our house rules/,
      );
      expect(() => claude({ prompts: { build: 'missing.md' } }, { configDir: dir })).toThrow(
        /cannot read the build prompt template .*missing\.md \(option prompts\.build; paths are relative to the config file\)/,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the factory', () => {
  it('makes a fixer named after its package, with a doctor', () => {
    const fixer = claude();
    expect(fixer.name).toBe('@suture/llm-claude-cli');
    expect(fixer.apiVersion).toBe(1);
    expect(typeof fixer.propose).toBe('function');
    expect(typeof fixer.doctor).toBe('function');
  });
});
