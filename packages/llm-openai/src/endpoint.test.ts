import { describe, expect, it } from 'vitest';
import { baseURLProblem, isOpenAIHost, normalizeBaseURL } from './endpoint.js';

describe('baseURLProblem', () => {
  it.each([
    'https://api.openai.com/v1',
    'http://127.0.0.1:11434/v1',
    'http://localhost:8000/v1/',
    'https://my-resource.openai.azure.com/openai/v1/',
    'https://openrouter.ai/api/v1',
    'https://generativelanguage.googleapis.com/v1beta/openai/',
  ])('accepts the API root %s', (url) => {
    expect(baseURLProblem(url)).toBeUndefined();
  });

  it('says to append /v1 to a bare server address', () => {
    expect(baseURLProblem('http://localhost:11434')).toBe(
      '"http://localhost:11434" does not end in /v1; the SDK appends /chat/completions to it, so use "http://localhost:11434/v1"',
    );
    expect(baseURLProblem('http://localhost:1234/api/')).toMatch(/use "http:\/\/localhost:1234\/api\/v1"$/);
  });

  it.each([
    ['http://localhost:11434/v1/chat/completions', 'chat/completions', 'http://localhost:11434/v1'],
    ['https://api.openai.com/v1/responses', 'responses', 'https://api.openai.com/v1'],
    ['http://localhost:8000/v1/models/', 'models', 'http://localhost:8000/v1'],
  ])('says an endpoint URL %s is not the root', (url, endpoint, root) => {
    expect(baseURLProblem(url)).toBe(
      `"${url}" is an endpoint, not the API root; the SDK appends /${endpoint} itself, so use "${root}"`,
    );
  });

  it('refuses what is not an http(s) URL', () => {
    expect(baseURLProblem('localhost:11434/v1')).toMatch(/not an http\(s\) URL|not a URL/);
    expect(baseURLProblem('11434')).toMatch(/is not a URL; use the API root/);
    expect(baseURLProblem('ftp://host/v1')).toMatch(/not an http\(s\) URL/);
  });
});

describe('endpoint helpers', () => {
  it('drops trailing slashes', () => {
    expect(normalizeBaseURL('http://h:1/v1//')).toBe('http://h:1/v1');
  });
  it('tells OpenAI from compatible servers by host', () => {
    expect(isOpenAIHost('https://api.openai.com/v1')).toBe(true);
    expect(isOpenAIHost('http://127.0.0.1:11434/v1')).toBe(false);
    expect(isOpenAIHost('https://api.openai.com.evil.example/v1')).toBe(false);
  });
});
