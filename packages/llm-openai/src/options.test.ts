import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { instantiate, splitSpec } from '@suture/core/internal';
import { PluginError, z } from '@suture/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import openai from './fixer.js';
import { DEFAULT_MODEL, NO_KEY, resolveOptions } from './options.js';
import { OPENAI_PRICES } from './prices.js';

const resolve = (options: unknown, env: NodeJS.ProcessEnv = {}) =>
  resolveOptions(options, { configDir: process.cwd(), env });

function issues(fn: () => unknown): Array<{ path: string; message: string }> {
  try {
    fn();
  } catch (error) {
    if (error instanceof z.ZodError)
      return error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
    throw error;
  }
  throw new Error('expected a ZodError');
}

describe('resolveOptions on OpenAI', () => {
  it('defaults to Chat Completions on OpenAI with the key from OPENAI_API_KEY', () => {
    const o = resolve({}, { OPENAI_API_KEY: 'sk-test-1234567890' });
    expect(o).toMatchObject({
      model: DEFAULT_MODEL,
      api: 'chat',
      baseURL: 'https://api.openai.com/v1',
      openAIHost: true,
      retries: 2,
      timeoutMs: 180_000,
      maxOutputTokens: 16_384,
    });
    expect(o.apiKey).toEqual({ value: 'sk-test-1234567890', source: '$OPENAI_API_KEY', placeholder: false });
    expect(o.temperature).toBeUndefined();
    expect(o.prices).toEqual(OPENAI_PRICES);
    expect(o.templates.logic).toContain('{{evidence}}');
  });

  it('has no key (not a placeholder) when OpenAI is the endpoint and nothing is set', () => {
    expect(resolve({}).apiKey).toBeUndefined();
  });

  it('reads the key from the variable apiKeyEnv names, and prefers the apiKey option', () => {
    expect(
      resolve({ apiKeyEnv: 'TEAM_OPENAI' }, { TEAM_OPENAI: 'k-team', OPENAI_API_KEY: 'k-default' }).apiKey
        ?.value,
    ).toBe('k-team');
    expect(resolve({ apiKeyEnv: 'TEAM_OPENAI' }, { OPENAI_API_KEY: 'k-default' }).apiKey).toBeUndefined();
    expect(resolve({ apiKey: 'k-config' }, { OPENAI_API_KEY: 'k-default' }).apiKey).toEqual({
      value: 'k-config',
      source: 'the apiKey option',
      placeholder: false,
    });
  });

  it('merges configured prices over the OpenAI defaults', () => {
    const o = resolve({
      prices: { 'gpt-5-mini': { input: 9, output: 9 }, 'ft:my-model': { input: 1, output: 2 } },
    });
    expect(o.prices['gpt-5-mini']).toEqual({ input: 9, output: 9 });
    expect(o.prices['ft:my-model']).toEqual({ input: 1, output: 2 });
    expect(o.prices['gpt-4.1']).toEqual(OPENAI_PRICES['gpt-4.1']);
  });

  it('takes the Responses API, temperature, limits and retries as given', () => {
    expect(
      resolve({ api: 'responses', temperature: 0.2, timeoutMs: 5000, retries: 0, maxOutputTokens: 2048 }),
    ).toMatchObject({
      api: 'responses',
      temperature: 0.2,
      timeoutMs: 5000,
      retries: 0,
      maxOutputTokens: 2048,
    });
  });
});

describe('resolveOptions on a compatible server', () => {
  it('sends a placeholder key to a local server when none is set, and prices nothing', () => {
    const o = resolve({ baseURL: 'http://127.0.0.1:11434/v1/', model: 'qwen2.5-coder' });
    expect(o).toMatchObject({
      baseURL: 'http://127.0.0.1:11434/v1',
      openAIHost: false,
      model: 'qwen2.5-coder',
    });
    expect(o.apiKey).toEqual({
      value: NO_KEY,
      source: 'none (a local server needs none)',
      placeholder: true,
    });
    expect(o.prices).toEqual({});
  });

  it('uses a key when one is set, and only the configured prices', () => {
    const o = resolve(
      { baseURL: 'https://vllm.internal/v1', model: 'coder', prices: { coder: { input: 0.1, output: 0.2 } } },
      { OPENAI_API_KEY: 'k-vllm' },
    );
    expect(o.apiKey).toMatchObject({ value: 'k-vllm', placeholder: false });
    expect(o.prices).toEqual({ coder: { input: 0.1, output: 0.2 } });
  });

  it('takes OPENAI_BASE_URL from the environment when baseURL is not set', () => {
    expect(resolve({ model: 'm' }, { OPENAI_BASE_URL: 'http://127.0.0.1:8000/v1' })).toMatchObject({
      baseURL: 'http://127.0.0.1:8000/v1',
      openAIHost: false,
    });
    expect(() => resolve({ model: 'm' }, { OPENAI_BASE_URL: 'http://127.0.0.1:8000' })).toThrow(
      'the environment variable OPENAI_BASE_URL="http://127.0.0.1:8000" does not end in /v1; the SDK appends /chat/completions to it, so use "http://127.0.0.1:8000/v1"; fix it or set the fixer option "baseURL"',
    );
    expect(() => resolve({}, { OPENAI_BASE_URL: 'http://127.0.0.1:8000/v1' })).toThrow(
      /the fixer option "model" is required with OPENAI_BASE_URL=http:\/\/127\.0\.0\.1:8000\/v1/,
    );
  });
});

describe('option errors', () => {
  it('names baseURL and the fix when /v1 is missing', () => {
    expect(issues(() => resolve({ baseURL: 'http://localhost:11434', model: 'qwen2.5-coder' }))).toEqual([
      {
        path: 'baseURL',
        message:
          '"http://localhost:11434" does not end in /v1; the SDK appends /chat/completions to it, so use "http://localhost:11434/v1"',
      },
    ]);
  });

  it('asks for a model with a server that is not OpenAI', () => {
    expect(issues(() => resolve({ baseURL: 'http://localhost:11434/v1' }))).toEqual([
      {
        path: 'model',
        message:
          'required with baseURL http://localhost:11434/v1: name a model the server serves, e.g. "qwen2.5-coder" for Ollama',
      },
    ]);
  });

  it.each([
    [{ api: 'completions' }, 'api'],
    [{ temperature: 3 }, 'temperature'],
    [{ retries: -1 }, 'retries'],
    [{ timeoutMs: 0 }, 'timeoutMs'],
    [{ apiKeyEnv: 'not a name' }, 'apiKeyEnv'],
    [{ prices: { m: { input: 1 } } }, 'prices.m.output'],
    [{ prompts: { review: 'x.md' } }, 'prompts'],
    [{ maxTokens: 10 }, ''],
  ])('refuses %j at %s', (options, path) => {
    expect(issues(() => resolve(options)).map((i) => i.path)).toEqual([path]);
  });

  it('reaches the user through the plugin loader as a config error naming the entry and key', () => {
    const ref = splitSpec(['openai', { baseURL: 'http://localhost:11434', model: 'qwen2.5-coder' }], {
      configFile: 'suture.config.json',
      keyPath: 'fixers[1]',
    });
    expect(() => instantiate({ default: openai }, ref, { configDir: process.cwd() })).toThrow(PluginError);
    expect(() => instantiate({ default: openai }, ref, { configDir: process.cwd() })).toThrow(
      'openai (suture.config.json#fixers[1]): invalid options:\n  - baseURL: "http://localhost:11434" does not end in /v1; the SDK appends /chat/completions to it, so use "http://localhost:11434/v1" (found "http://localhost:11434")',
    );
  });
});

describe('prompt templates', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'suture-openai-prompts-'));
    await writeFile(join(dir, 'logic.md'), 'Team rules first.\n\n{{failure}}\n\n{{history}}\n\n{{answer}}\n');
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('reads overrides relative to the config folder and keeps the shipped ones for the rest', () => {
    const o = resolveOptions({ prompts: { logic: 'logic.md' } }, { configDir: dir, env: {} });
    expect(o.templates.logic).toMatch(/^Team rules first\./);
    expect(o.templates.build).toContain('{{evidence}}');
  });

  it('says which option names a missing template', () => {
    expect(() => resolveOptions({ prompts: { build: 'missing.md' } }, { configDir: dir, env: {} })).toThrow(
      /cannot read the build prompt template .*missing\.md \(option prompts\.build; paths are relative to the config file\)/,
    );
  });
});
