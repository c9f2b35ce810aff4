import { sampleFixerContext, sampleFixRequest } from '@suture/core/testing';
import { describe, expect, it, vi } from 'vitest';
import claude from './fixer.js';

const sdk = vi.hoisted(() => ({ loaded: false }));
vi.mock('@anthropic-ai/sdk', async (importOriginal) => {
  sdk.loaded = true;
  return importOriginal();
});

describe('loading the Anthropic SDK', () => {
  it('happens on the first call of api mode, never in cli mode', async () => {
    const api = claude({
      mode: 'api',
      apiKey: 'k-test-0123456789',
      baseURL: 'http://127.0.0.1:9',
      retries: 0,
    });
    const cli = claude({ command: '/nonexistent/bin/claude' });
    await expect(cli.propose(sampleFixRequest(), sampleFixerContext())).rejects.toThrow(
      /the claude CLI is not at \/nonexistent\/bin\/claude/,
    );
    expect(sdk.loaded).toBe(false);
    await expect(api.propose(sampleFixRequest(), sampleFixerContext())).rejects.toThrow(
      /^cannot connect to http:\/\/127\.0\.0\.1:9\/v1\/messages \(bad port\): is the server at/,
    );
    expect(sdk.loaded).toBe(true);
  });
});
