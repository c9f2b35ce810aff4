import { writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import claude from '../src/index.js';
import type { ClaudeOptions } from '../src/options.js';
import { claudeBinary, isolatedEnv, removeHomes } from './support/claude.js';
import { startMockAnthropic, type MockAnthropic } from './support/mock-anthropic.js';

let mock: MockAnthropic;
const savedEnv = { ...process.env };
beforeAll(async () => {
  mock = await startMockAnthropic();
});
afterAll(async () => {
  await mock.close();
  removeHomes();
});
afterEach(() => {
  // doctor never sends a prompt (nor any other request to the API)
  expect(mock.requests.filter((r) => r.method === 'POST')).toEqual([]);
  process.env = { ...savedEnv };
});

const doctor = (options: ClaudeOptions) => claude(options).doctor!();

/** A local URL nothing listens on: a port that was free a moment ago. */
async function deadURL(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

describe('doctor in cli mode (the real claude)', () => {
  it('reports the version, a login by key, and an endpoint that answers and takes the key', async () => {
    const checks = await doctor({ command: claudeBinary(), env: isolatedEnv(mock.url) });
    expect(checks).toEqual([
      { name: 'claude', status: 'ok', message: `2.1.197 (Claude Code) at ${claudeBinary()}` },
      { name: 'claude login', status: 'ok', message: 'logged in (api_key from $ANTHROPIC_API_KEY)' },
      {
        name: 'endpoint',
        status: 'ok',
        message: `${mock.url} answers and takes the key from $ANTHROPIC_API_KEY`,
      },
    ]);
    expect(mock.requests.map((r) => `${r.method} ${r.path}`)).toContain('GET /v1/models?limit=1');
  });

  it('is not ready with the endpoint down, and names what failed', async () => {
    const dead = await deadURL();
    const checks = await doctor({ command: claudeBinary(), env: isolatedEnv(dead) });
    expect(checks[2]).toEqual({
      name: 'endpoint',
      status: 'error',
      message: `cannot reach ${dead}: ECONNREFUSED`,
      fix: 'start the server or fix ANTHROPIC_BASE_URL',
    });
    const viaOption = await doctor({ command: claudeBinary(), env: isolatedEnv(mock.url), baseURL: dead });
    expect(viaOption[2]).toMatchObject({
      status: 'error',
      fix: 'start the server or fix the fixer option "baseURL"',
    });
  });

  it('says the key is rejected', async () => {
    mock.rejectKey('sk-ant-revoked-0123456789');
    const checks = await doctor({
      command: claudeBinary(),
      env: isolatedEnv(mock.url, { ANTHROPIC_API_KEY: 'sk-ant-revoked-0123456789' }),
    });
    expect(checks[2]).toEqual({
      name: 'endpoint',
      status: 'error',
      message: `${mock.url} rejects the key from $ANTHROPIC_API_KEY (HTTP 401)`,
      fix: 'set ANTHROPIC_API_KEY to a valid key',
    });
  });

  it('reports a login from the credentials file of the config folder', async () => {
    const env = isolatedEnv(mock.url, { ANTHROPIC_API_KEY: null });
    const login = {
      claudeAiOauth: {
        accessToken: 'sk-ant-oat01-test',
        refreshToken: 'sk-ant-ort01-test',
        expiresAt: 9_999_999_999_999,
        scopes: ['user:inference'],
        subscriptionType: 'pro',
      },
    };
    writeFileSync(join(env.CLAUDE_CONFIG_DIR!, '.credentials.json'), JSON.stringify(login));
    const checks = await doctor({ command: claudeBinary(), env });
    expect(checks[1]).toEqual({ name: 'claude login', status: 'ok', message: 'logged in (claude.ai)' });
  });

  it('says how to log in when there is no login and no key', async () => {
    const checks = await doctor({
      command: claudeBinary(),
      env: isolatedEnv(mock.url, { ANTHROPIC_API_KEY: null }),
    });
    expect(checks[1]).toEqual({
      name: 'claude login',
      status: 'error',
      message: 'claude is not logged in and no key is set',
      fix: 'run `claude /login` (or `claude setup-token` for CI), or set ANTHROPIC_API_KEY',
    });
  });

  it('wants ANTHROPIC_API_KEY with --bare, which ignores logins', async () => {
    const withKey = await doctor({ command: claudeBinary(), bare: true, env: isolatedEnv(mock.url) });
    expect(withKey[1]).toEqual({
      name: 'claude login',
      status: 'ok',
      message: 'credentials from $ANTHROPIC_API_KEY',
    });
    const token = await doctor({
      command: claudeBinary(),
      bare: true,
      env: isolatedEnv(mock.url, { ANTHROPIC_API_KEY: null, CLAUDE_CODE_OAUTH_TOKEN: 'sk-ant-oat01-x' }),
    });
    expect(token[1]).toMatchObject({ status: 'error', fix: 'set ANTHROPIC_API_KEY' });
  });

  it('says how to install claude when it is missing', async () => {
    expect(await doctor({ command: '/nonexistent/claude' })).toEqual([
      {
        name: 'claude',
        status: 'error',
        message: '/nonexistent/claude not found',
        fix: 'install it with `npm i -g @anthropic-ai/claude-code`, or set the fixer option "command" to its path',
      },
    ]);
    expect(await doctor({ command: 'claude-not-installed-here' })).toEqual([
      expect.objectContaining({ status: 'error', message: 'claude-not-installed-here not found on PATH' }),
    ]);
  });
});

describe('doctor in api mode', () => {
  it('reports where the key comes from, the price of the model and the endpoint', async () => {
    process.env.ANTHROPIC_API_KEY = 'sk-ant-doctor-0123456789';
    expect(await doctor({ mode: 'api', baseURL: mock.url })).toEqual([
      { name: 'anthropic key', status: 'ok', message: 'key from $ANTHROPIC_API_KEY' },
      { name: 'model price', status: 'ok', message: 'claude-sonnet-4-6: $3 in / $15 out per million tokens' },
      {
        name: 'endpoint',
        status: 'ok',
        message: `${mock.url} answers and takes the key from $ANTHROPIC_API_KEY`,
      },
    ]);
    const dead = await deadURL();
    expect((await doctor({ mode: 'api', baseURL: dead }))[2]).toEqual({
      name: 'endpoint',
      status: 'error',
      message: `cannot reach ${dead}: ECONNREFUSED`,
      fix: 'start the server or fix the fixer option "baseURL"',
    });
  });

  it('says what to set when there is no key, and warns about a model without a price', async () => {
    delete process.env.ANTHROPIC_API_KEY;
    delete process.env.ANTHROPIC_AUTH_TOKEN;
    expect(await doctor({ mode: 'api', model: 'claude-next-1' })).toEqual([
      {
        name: 'anthropic key',
        status: 'error',
        message: 'no Anthropic API key (ANTHROPIC_API_KEY and ANTHROPIC_AUTH_TOKEN are unset)',
        fix: 'set ANTHROPIC_API_KEY, or use mode "cli" with a logged-in claude',
      },
      {
        name: 'model price',
        status: 'warn',
        message: 'no price for claude-next-1: its cost will show as 0',
        fix: 'add "claude-next-1" to the fixer option "prices"',
      },
      {
        name: 'endpoint',
        status: 'warn',
        message: 'https://api.anthropic.com not checked: no key to call it with',
      },
    ]);
  });
});
