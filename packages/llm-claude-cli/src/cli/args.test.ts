import { describe, expect, it } from 'vitest';
import { buildCliArgs, buildCliEnv } from './args.js';

const base = {
  model: undefined,
  maxTurns: 12,
  maxBudgetUsd: undefined,
  bare: false,
  resume: true,
  tools: 'none' as const,
  answerRetries: 1,
};
const call = {
  schema: { type: 'object', properties: { verdict: { type: 'string' } } },
  systemPrompt: 'You are the fixer.',
};

/** The value that follows a flag, or undefined. */
function flag(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  return i < 0 ? undefined : args[i + 1];
}

describe('buildCliArgs', () => {
  it('runs claude headless with JSON output, the answer schema, no tools and its own system prompt', () => {
    const args = buildCliArgs(base, call);
    expect(args[0]).toBe('-p');
    expect(flag(args, '--output-format')).toBe('json');
    expect(JSON.parse(flag(args, '--json-schema')!)).toEqual(call.schema);
    expect(flag(args, '--tools')).toBe('');
    // one request, and claude's one re-ask of an answer that fails the schema (answerRetries)
    expect(flag(args, '--max-turns')).toBe('2');
    expect(flag(args, '--system-prompt')).toBe('You are the fixer.');
    expect(args).not.toContain('--append-system-prompt');
    expect(args).toContain('--strict-mcp-config');
    expect(args).not.toContain('--allowedTools');
    expect(args).not.toContain('--dangerously-skip-permissions');
  });

  it('contains the read-only tools: dontAsk, the private paths denied, the project settings not loaded', () => {
    const args = buildCliArgs(
      { ...base, tools: 'read' },
      { ...call, privatePaths: ['.env', '**/.env.*', '**/*.pem', '.git/**'] },
    );
    expect(flag(args, '--tools')).toBe('Read,Grep,Glob');
    expect(flag(args, '--max-turns')).toBe('12');
    expect(flag(args, '--permission-mode')).toBe('dontAsk');
    expect(flag(args, '--setting-sources')).toBe('user');
    const { deny } = (JSON.parse(flag(args, '--settings')!) as { permissions: { deny: string[] } })
      .permissions;
    expect(deny.slice(0, 4)).toEqual([
      'Read(./.env)',
      'Read(./**/.env.*)',
      'Read(./**/*.pem)',
      'Read(./.git/**)',
    ]);
    // the home's credentials, whatever the user's own settings allow
    for (const rule of ['Read(~/.aws/**)', 'Read(~/.ssh/**)', 'Read(~/.npmrc)', 'Read(~/.netrc)'])
      expect(deny).toContain(rule);
    expect(args.join(' ')).not.toMatch(/\b(Edit|Write|Bash)\b/);
    expect(args).not.toContain('--allowedTools');
  });

  it('never puts the prompt in the arguments (it goes to stdin)', () => {
    expect(buildCliArgs(base, call).join('\n')).not.toContain('def ');
    expect(buildCliArgs(base, call).filter((a) => !a.startsWith('-') && !a.startsWith('{'))).toEqual([
      'json',
      '',
      'user',
      'dontAsk',
      '2',
      'You are the fixer.',
    ]);
  });

  it('adds the model, the budget and --bare only when configured', () => {
    const plain = buildCliArgs(base, call);
    for (const f of ['--model', '--max-budget-usd', '--bare', '--resume']) expect(plain).not.toContain(f);
    const args = buildCliArgs({ ...base, model: 'sonnet', maxBudgetUsd: 0.5, bare: true }, call);
    expect(flag(args, '--model')).toBe('sonnet');
    expect(flag(args, '--max-budget-usd')).toBe('0.5');
    expect(args).toContain('--bare');
  });

  it('resumes the session of the failure group when one is given', () => {
    const args = buildCliArgs(base, { ...call, resume: '6b465362-8535-4314-ba04-312104b3ca4b' });
    expect(flag(args, '--resume')).toBe('6b465362-8535-4314-ba04-312104b3ca4b');
    expect(args).not.toContain('--no-session-persistence');
  });

  it('keeps no session on disk when sessions are not resumed', () => {
    expect(buildCliArgs({ ...base, resume: false }, call)).toContain('--no-session-persistence');
    expect(buildCliArgs(base, call)).not.toContain('--no-session-persistence');
  });
});

const configKey = (value: string) => ({ value, source: 'the apiKey option', placeholder: false });

describe('buildCliEnv', () => {
  const options = {
    env: {},
    retries: 2,
    baseURL: undefined,
    apiKey: undefined,
    apiKeyEnv: 'ANTHROPIC_API_KEY',
  };

  it("keeps the user's environment, with few retries and no auto-update", () => {
    const env = buildCliEnv(options, { PATH: '/bin', HOME: '/home/u', CLAUDE_CODE_MAX_RETRIES: '10' });
    expect(env).toEqual({
      PATH: '/bin',
      HOME: '/home/u',
      CLAUDE_CODE_MAX_RETRIES: '2',
      DISABLE_AUTOUPDATER: '1',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    });
  });

  it('passes the configured key and base URL as the variables claude reads', () => {
    const env = buildCliEnv(
      { ...options, apiKey: configKey('sk-ant-config'), baseURL: 'http://127.0.0.1:9' },
      { ANTHROPIC_API_KEY: 'sk-ant-env' },
    );
    expect(env.ANTHROPIC_API_KEY).toBe('sk-ant-config');
    expect(env.ANTHROPIC_BASE_URL).toBe('http://127.0.0.1:9');
  });

  it('reads the key from apiKeyEnv when it names another variable', () => {
    expect(
      buildCliEnv({ ...options, apiKeyEnv: 'CI_CLAUDE_KEY' }, { CI_CLAUDE_KEY: 'sk-ant-ci' })
        .ANTHROPIC_API_KEY,
    ).toBe('sk-ant-ci');
    expect(buildCliEnv(options, {}).ANTHROPIC_API_KEY).toBeUndefined();
  });

  it('prefers the apiKey and baseURL options to the same variables in the env option', () => {
    const env = buildCliEnv(
      {
        ...options,
        apiKey: configKey('sk-ant-option'),
        baseURL: 'http://127.0.0.1:1',
        env: { ANTHROPIC_API_KEY: 'sk-ant-env-option', ANTHROPIC_BASE_URL: 'http://127.0.0.1:2' },
      },
      {},
    );
    expect(env).toMatchObject({
      ANTHROPIC_API_KEY: 'sk-ant-option',
      ANTHROPIC_BASE_URL: 'http://127.0.0.1:1',
    });
  });

  it('does not put back a key from ANTHROPIC_API_KEY that the env option removes', () => {
    const fromEnv = { value: 'sk-ant-env', source: '$ANTHROPIC_API_KEY', placeholder: false };
    const env = buildCliEnv(
      { ...options, apiKey: fromEnv, env: { ANTHROPIC_API_KEY: undefined } },
      { ANTHROPIC_API_KEY: 'sk-ant-env' },
    );
    expect(env).not.toHaveProperty('ANTHROPIC_API_KEY');
  });

  it('lets the env option set and remove the other variables', () => {
    const env = buildCliEnv(
      { ...options, env: { ANTHROPIC_API_KEY: undefined, CLAUDE_CODE_MAX_RETRIES: '0', HOME: '/tmp/h' } },
      { ANTHROPIC_API_KEY: 'sk-ant-env', HOME: '/home/u' },
    );
    expect(env).not.toHaveProperty('ANTHROPIC_API_KEY');
    expect(env.CLAUDE_CODE_MAX_RETRIES).toBe('0');
    expect(env.HOME).toBe('/tmp/h');
  });
});
