import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { allowlist, barredFromSandbox, sandboxEnv } from './env.js';

// suture's own environment as a developer's shell has it: tools, a locale, keys and settings.
const SHELL = {
  PATH: '/usr/local/bin:/usr/bin',
  HOME: '/home/dev',
  LC_ALL: 'C.UTF-8',
  PYTHONPATH: 'src',
  CMAKE_BUILD_PARALLEL_LEVEL: '2',
  ANTHROPIC_API_KEY: 'sk-ant-api03-env-test-0000000000000000',
  OPENAI_BASE_URL: 'http://127.0.0.1:9/v1',
  GITHUB_TOKEN: 'ghp_envtest000000000000000000000000000000',
  DEPLOY_HOOK: 'https://hooks.example.com/abc',
  FEATURE_FLAGS: 'fast',
};

describe('the environment of a sandboxed run', () => {
  it('keeps the tools, the locale and the toolchains; drops the rest of what suture inherited', () => {
    expect(sandboxEnv(SHELL, { inherited: SHELL })).toEqual({
      PATH: SHELL.PATH,
      HOME: SHELL.HOME,
      LC_ALL: SHELL.LC_ALL,
      PYTHONPATH: SHELL.PYTHONPATH,
      CMAKE_BUILD_PARALLEL_LEVEL: SHELL.CMAKE_BUILD_PARALLEL_LEVEL,
    });
  });

  it('passes a name the config adds, and what the runner set itself', () => {
    const env = { ...SHELL, SUTURE_EVENTS_FILE: '/tmp/events.jsonl', PYTHONPATH: 'src:lib' };
    const out = sandboxEnv(env, { inherited: SHELL, extra: ['FEATURE_FLAGS'] });
    expect(out.FEATURE_FLAGS).toBe('fast');
    expect(out.SUTURE_EVENTS_FILE).toBe('/tmp/events.jsonl');
    expect(out.PYTHONPATH).toBe('src:lib');
    expect(out.DEPLOY_HOOK).toBeUndefined();
  });

  it('never passes an LLM setting, a secret-named variable or a secret copied under another name', () => {
    const env = { ...SHELL, BUILD_ID: SHELL.GITHUB_TOKEN, INTERNAL_PASS: 'hunter2-hunter2' };
    const extra = ['ANTHROPIC_API_KEY', 'OPENAI_BASE_URL', 'GITHUB_TOKEN', 'BUILD_ID', 'INTERNAL_PASS'];
    const out = sandboxEnv(env, { inherited: env, extra, secretNames: [/_PASS$/i] });
    for (const name of extra) expect(out[name], name).toBeUndefined();
    // The runner setting a key itself does not get it in either.
    expect(
      sandboxEnv({ ...SHELL, OPENAI_API_KEY: 'sk-proj-set-by-runner' }, { inherited: SHELL }),
    ).not.toHaveProperty('OPENAI_API_KEY');
  });

  it('says why a name can never be configured in', () => {
    expect(barredFromSandbox('ANTHROPIC_BASE_URL')).toBe('it configures an LLM service');
    expect(barredFromSandbox('NPM_TOKEN')).toBe('its name marks a secret');
    expect(barredFromSandbox('FEATURE_FLAGS')).toBeUndefined();
  });
});

describe('the private HOME', () => {
  it("replaces the user's HOME, a runner's own too, and pins the toolchains to the real home where unset", () => {
    const home = { dir: '/run/work/p/home', env: { GOPATH: '/home/dev/go', PYENV_ROOT: '/home/dev/.pyenv' } };
    const out = sandboxEnv(
      { ...SHELL, HOME: '/home/other', PYENV_ROOT: '/opt/pyenv' },
      { inherited: SHELL, home },
    );
    expect(out.HOME).toBe('/run/work/p/home');
    expect(out.GOPATH).toBe('/home/dev/go');
    // a toolchain variable the environment sets is kept as set
    expect(out.PYENV_ROOT).toBe('/opt/pyenv');
  });
});

describe('docs/runner.md', () => {
  it('lists every variable and prefix the allowlist passes', () => {
    const doc = readFileSync(new URL('../../../../../docs/runner.md', import.meta.url), 'utf8');
    const table = doc.slice(doc.indexOf('### The sandbox'));
    const { names, prefixes } = allowlist();
    for (const name of names) expect(table, name).toContain(`\`${name}\``);
    for (const prefix of prefixes) expect(table, prefix).toContain(`\`${prefix}*\``);
  });
});
