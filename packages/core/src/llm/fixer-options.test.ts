import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { keyFix, resolveApiKey } from './api-key.js';
import { LlmOptionsSchema, resolveLlmSettings, type LlmSettingsContext } from './fixer-options.js';

/** A fixer package's schema: the common options plus one of its transport. */
const TeamSchema = LlmOptionsSchema.extend({ region: z.enum(['eu', 'us']).default('eu') }).strict();
const context = (over: Partial<LlmSettingsContext> = {}): LlmSettingsContext => ({
  configDir: process.cwd(),
  env: {},
  defaults: {
    apiKeyEnv: 'TEAM_API_KEY',
    maxOutputTokens: 8000,
    prices: { 'team-1': { input: 1, output: 2 } },
  },
  ...over,
});
const settle = (options: unknown, over: Partial<LlmSettingsContext> = {}) => {
  const { region: _region, ...common } = TeamSchema.parse(options);
  return resolveLlmSettings(common, context(over));
};

describe('LlmOptionsSchema extended by a fixer package', () => {
  it('gives the common defaults and keeps the transport options', () => {
    expect(TeamSchema.parse({})).toEqual({
      timeoutMs: 180_000,
      retries: 2,
      answerRetries: 1,
      circuitBreaker: 2,
      region: 'eu',
    });
  });

  it.each([
    [{ timeoutMs: 0 }, 'timeoutMs'],
    [{ retries: 11 }, 'retries'],
    [{ maxOutputTokens: 1.5 }, 'maxOutputTokens'],
    [{ apiKey: '' }, 'apiKey'],
    [{ apiKeyEnv: 'not a name' }, 'apiKeyEnv'],
    [{ prices: { m: { input: 1 } } }, 'prices.m.output'],
    [{ prompts: { review: 'x.md' } }, 'prompts'],
    [{ region: 'mars' }, 'region'],
    [{ modle: 'x' }, ''],
  ])('refuses %j at %s', (options, path) => {
    const parsed = TeamSchema.safeParse(options);
    expect(parsed.success).toBe(false);
    expect(parsed.error!.issues.map((i) => i.path.join('.'))).toEqual([path]);
  });
});

describe('resolveLlmSettings', () => {
  it("fills the fixer's defaults and merges configured prices over its table", () => {
    const s = settle({ prices: { 'team-2': { input: 3, output: 4 } } });
    expect(s).toMatchObject({ model: undefined, timeoutMs: 180_000, retries: 2, maxOutputTokens: 8000 });
    expect(s.apiKeyEnv).toBe('TEAM_API_KEY');
    expect(s.prices).toEqual({ 'team-1': { input: 1, output: 2 }, 'team-2': { input: 3, output: 4 } });
    expect(s.templates.logic).toContain('{{evidence}}');
    expect(settle({ maxOutputTokens: 100, prices: { 'team-1': { input: 9, output: 9 } } })).toMatchObject({
      maxOutputTokens: 100,
      prices: { 'team-1': { input: 9, output: 9 } },
    });
  });

  it('takes the key from the option, else from the variable apiKeyEnv names, and never from another', () => {
    const env = { TEAM_API_KEY: ' team-env-key-42 ', OTHER: 'other-key-42' };
    expect(settle({}, { env }).apiKey).toEqual({
      value: 'team-env-key-42',
      source: '$TEAM_API_KEY',
      placeholder: false,
    });
    expect(settle({ apiKey: 'config-key-42' }, { env }).apiKey).toEqual({
      value: 'config-key-42',
      source: 'the apiKey option',
      placeholder: false,
    });
    expect(settle({ apiKeyEnv: 'OTHER' }, { env }).apiKey?.source).toBe('$OTHER');
    expect(settle({ apiKeyEnv: 'MISSING' }, { env }).apiKey).toBeUndefined();
    expect(resolveApiKey({ apiKeyEnv: 'BLANK' }, { BLANK: '   ' })).toBeUndefined();
  });

  it("masks the environment's secrets, the key wherever it came from, and the child environment's", () => {
    const s = settle(
      { apiKeyEnv: 'TEAM' },
      {
        env: { TEAM: 'plain-named-value', DB_PASSWORD: 'hunter2-secret' },
        extraEnv: { CHILD_TOKEN: 'child-token-42', GONE: undefined },
      },
    );
    expect(s.redact('plain-named-value hunter2-secret child-token-42 HOME')).toBe(
      '[REDACTED] [REDACTED] [REDACTED] HOME',
    );
    expect(settle({ apiKey: 'config-key-42' }).redact('key config-key-42')).toBe('key [REDACTED]');
  });

  describe('prompt templates', () => {
    let dir: string;
    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), 'suture-llm-settings-'));
      await writeFile(join(dir, 'logic.md'), 'House rules.\n\n{{failure}}\n\n{{answer}}\n');
    });
    afterAll(() => rm(dir, { recursive: true, force: true }));

    it('reads overrides from the config folder, and a missing file fails at load naming the option', () => {
      expect(settle({ prompts: { logic: 'logic.md' } }, { configDir: dir }).templates.logic).toMatch(
        /^House rules/,
      );
      expect(() => settle({ prompts: { build: 'missing.md' } }, { configDir: dir })).toThrow(
        /cannot read the build prompt template .*missing\.md \(option prompts\.build/,
      );
    });
  });
});

describe('keyFix', () => {
  it('points at the option for a key in the config file, else at the variable', () => {
    const fromOption = { value: 'k', source: 'the apiKey option', placeholder: false };
    expect(keyFix(fromOption, 'TEAM_API_KEY', 'TEAM_API_KEY')).toBe(
      'fix the fixer option "apiKey" (better: remove it and set TEAM_API_KEY)',
    );
    expect(keyFix(undefined, 'TEAM_API_KEY', 'TEAM_API_KEY')).toBe('set TEAM_API_KEY to a valid key');
    expect(keyFix(undefined, 'CI_KEY', 'TEAM_API_KEY')).toBe(
      'set CI_KEY to a valid key (option "apiKeyEnv")',
    );
  });
});
