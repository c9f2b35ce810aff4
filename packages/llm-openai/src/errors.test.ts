import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  AuthenticationError,
  BadRequestError,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
} from 'openai';
import { describe, expect, it } from 'vitest';
import { describeFailure, type CallContext } from './errors.js';

const local: CallContext = {
  baseURL: 'http://127.0.0.1:11434/v1',
  path: '/chat/completions',
  model: 'qwen2.5-coder',
  apiKey: { value: 'no-key', source: 'none', placeholder: true },
  apiKeyEnv: 'OPENAI_API_KEY',
  retries: 2,
  timeoutMs: 1000,
  openAIHost: false,
};
const cloud: CallContext = {
  ...local,
  baseURL: 'https://api.openai.com/v1',
  model: 'gpt-5-mini',
  apiKey: { value: 'sk-x', source: '$OPENAI_API_KEY', placeholder: false },
  openAIHost: true,
  retries: 1,
};
const h = new Headers();
const body = (message: string, code?: string) => ({ message, type: 'x', param: null, code: code ?? null });

describe('describeFailure', () => {
  it('asks whether a local server is running when the connection fails', () => {
    const refused = new APIConnectionError({
      cause: Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } }),
    });
    expect(describeFailure(refused, local)).toBe(
      'cannot connect to http://127.0.0.1:11434/v1/chat/completions after 2 retries (ECONNREFUSED): is the server at http://127.0.0.1:11434/v1 running?',
    );
    expect(describeFailure(refused, cloud)).toMatch(
      /after 1 retry \(ECONNREFUSED\): check the network and any proxy$/,
    );
  });

  it('says how long it waited on a timeout and what to raise', () => {
    expect(describeFailure(new APIConnectionTimeoutError(), { ...local, retries: 0 })).toBe(
      'no reply from http://127.0.0.1:11434/v1/chat/completions within 1 s: raise the fixer option "timeoutMs", lower "maxOutputTokens", or use a faster model',
    );
  });

  it('says which variable to set on a 401', () => {
    expect(
      describeFailure(new AuthenticationError(401, body('Incorrect API key provided'), undefined, h), cloud),
    ).toBe(
      'https://api.openai.com/v1 refused the API key from $OPENAI_API_KEY (401: Incorrect API key provided): set OPENAI_API_KEY to a valid key',
    );
    expect(
      describeFailure(new AuthenticationError(401, body('key required'), undefined, h), {
        ...local,
        apiKeyEnv: 'VLLM_KEY',
      }),
    ).toBe(
      'http://127.0.0.1:11434/v1 wants an API key and none is set (401: key required): set VLLM_KEY to a valid key (option "apiKeyEnv")',
    );
    expect(
      describeFailure(new AuthenticationError(401, body('bad'), undefined, h), {
        ...cloud,
        apiKey: { value: 'k', source: 'the apiKey option', placeholder: false },
      }),
    ).toMatch(/: fix the fixer option "apiKey" \(better: remove it and set OPENAI_API_KEY\)$/);
  });

  it('tells a rate limit from an empty account', () => {
    expect(
      describeFailure(
        new RateLimitError(429, body('Rate limit reached', 'rate_limit_exceeded'), undefined, h),
        cloud,
      ),
    ).toBe(
      'rate limited by https://api.openai.com/v1 after 1 retry (429: Rate limit reached): re-run later, raise the fixer option "retries", or lower "concurrency"',
    );
    expect(
      describeFailure(
        new RateLimitError(429, body('You exceeded your current quota', 'insufficient_quota'), undefined, h),
        cloud,
      ),
    ).toMatch(/out of quota .*: add credit or use another key$/);
  });

  it('names the model on 403 and 404, with the Ollama command for a local server', () => {
    expect(describeFailure(new PermissionDeniedError(403, body('no access'), undefined, h), cloud)).toMatch(
      /denied the request \(403: no access\): check that the key may use model "gpt-5-mini"$/,
    );
    expect(
      describeFailure(
        new NotFoundError(404, body('model "qwen2.5-coder" not found, try pulling it first'), undefined, h),
        local,
      ),
    ).toBe(
      'http://127.0.0.1:11434/v1/chat/completions answered 404 (model "qwen2.5-coder" not found, try pulling it first): check the fixer option "model" ("qwen2.5-coder") (for Ollama: `ollama pull qwen2.5-coder`) and that baseURL is the API root ending in /v1',
    );
  });

  it('passes on what the server said about a bad request, and 5xx after retries', () => {
    expect(
      describeFailure(
        Object.assign(
          new BadRequestError(
            400,
            { ...body('Invalid schema for function'), param: 'tools[0]' },
            undefined,
            h,
          ),
          { param: 'tools[0]' },
        ),
        local,
      ),
    ).toMatch(
      /rejected the request \(parameter tools\[0\]\) \(400: Invalid schema for function\): the model "qwen2.5-coder" may not support strict function calling on this server; try another model$/,
    );
    const unsupported = (param: string) =>
      new BadRequestError(400, { ...body(`Unsupported parameter: '${param}'`), param }, undefined, h);
    expect(describeFailure(unsupported('temperature'), cloud)).toMatch(
      /\(parameter temperature\) .*: the model "gpt-5-mini" does not take a temperature; remove the fixer option "temperature"$/,
    );
    expect(describeFailure(unsupported('max_tokens'), cloud)).toMatch(
      /refused the output limit; change the fixer option "maxOutputTokens"$/,
    );
    expect(describeFailure(new InternalServerError(503, body('overloaded'), undefined, h), local)).toBe(
      'http://127.0.0.1:11434/v1/chat/completions failed with 503 after 2 retries (overloaded): the server is in trouble; re-run later',
    );
    expect(describeFailure(new APIError(418, undefined, 'teapot', h), local)).toBe(
      'http://127.0.0.1:11434/v1/chat/completions answered 418: teapot',
    );
    expect(describeFailure(new APIError(409, body('locked'), undefined, h), local)).toBe(
      'http://127.0.0.1:11434/v1/chat/completions answered 409 after 2 retries: locked',
    );
  });

  it('calls an abort an interruption, and keeps any other error message', () => {
    expect(describeFailure(new APIUserAbortError(), local)).toBe(
      'the request to http://127.0.0.1:11434/v1/chat/completions was cancelled: the run was interrupted',
    );
    expect(describeFailure(new Error('boom'), local)).toBe(
      'the request to http://127.0.0.1:11434/v1/chat/completions failed: boom',
    );
  });
});
