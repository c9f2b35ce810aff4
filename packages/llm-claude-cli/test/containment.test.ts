import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PRIVATE_PATHS } from '@suture/core/llm';
import { type FixerContext } from '@suture/core';
import { sampleFixRequest, silentLogger } from '@suture/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import claude from '../src/index.js';
import { editAnswer } from './support/answers.js';
import { claudeBinary, isolatedEnv, removeHomes, TEST_MODEL } from './support/claude.js';
import { startMockAnthropic, type LoggedRequest, type MockAnthropic } from './support/mock-anthropic.js';

// The real claude binary with tools "read", against a local Messages API whose scripted model
// tries to read what it must not: the secrets of the project and a file outside it.
let mock: MockAnthropic;
let root: string;
let outside: string;
const SECRETS = {
  env: 'env-planted-value-1111',
  local: 'env-local-planted-2222',
  pem: 'pem-planted-value-3333',
  git: 'git-planted-value-4444',
  outside: 'outside-planted-5555',
  configured: 'configured-planted-6666',
  envrc: 'envrc-planted-7777',
  npmrc: 'npmrc-planted-8888',
  netrc: 'netrc-planted-9999',
  pypirc: 'pypirc-planted-1212',
  tfvars: 'tfvars-planted-1313',
  credentials: 'credentials-planted-1414',
  gitCredentials: 'gitcreds-planted-1515',
  sshKey: 'sshkey-planted-1616',
};
/** The project's credential files beyond `.env*`, each with the secret it holds. */
const CREDENTIAL_FILES: Array<[string, string]> = [
  ['.envrc', `export DEPLOY_TOKEN=${SECRETS.envrc}\n`],
  ['shop/.npmrc', `//registry.npmjs.org/:_authToken=${SECRETS.npmrc}\n`],
  ['.netrc', `machine api.example.com login ci password ${SECRETS.netrc}\n`],
  ['.pypirc', `[pypi]\npassword = ${SECRETS.pypirc}\n`],
  ['infra/prod.tfvars', `db_password = "${SECRETS.tfvars}"\n`],
  ['config/credentials.json', `{"secret": "${SECRETS.credentials}"}\n`],
  ['.git-credentials', `https://ci:${SECRETS.gitCredentials}@git.example.com\n`],
  ['deploy/id_rsa', `${SECRETS.sshKey}\n`],
];

beforeAll(async () => {
  mock = await startMockAnthropic();
  root = mkdtempSync(join(tmpdir(), 'suture-contained-'));
  outside = mkdtempSync(join(tmpdir(), 'suture-outside-'));
  mkdirSync(join(root, 'shop'));
  mkdirSync(join(root, 'config'));
  mkdirSync(join(root, '.git'));
  writeFileSync(
    join(root, 'shop', 'pricing.py'),
    'def discount(units):\n    if units > 10:\n        return 0.1\n    return 0\n',
  );
  writeFileSync(join(root, '.env'), `API_TOKEN=${SECRETS.env}\n`);
  writeFileSync(join(root, 'shop', '.env.local'), `DB=${SECRETS.local}\n`);
  writeFileSync(join(root, 'server.pem'), `${SECRETS.pem}\n`);
  writeFileSync(join(root, '.git', 'config'), `${SECRETS.git}\n`);
  writeFileSync(join(root, 'config', 'vault.yml'), `${SECRETS.configured}\n`);
  writeFileSync(join(outside, 'notes.txt'), `${SECRETS.outside}\n`);
  for (const [file, text] of CREDENTIAL_FILES) {
    mkdirSync(join(root, file, '..'), { recursive: true });
    writeFileSync(join(root, file), text);
  }
});
afterAll(async () => {
  await mock.close();
  removeHomes();
  rmSync(root, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

/** The tool result claude sent back for a tool call, from the request that followed it. */
function toolResult(request: LoggedRequest): { content: string; is_error?: boolean } {
  const messages = request.body!.messages as Array<{ content: unknown }>;
  const last = messages.at(-1)!.content as Array<{ type: string; content: unknown; is_error?: boolean }>;
  const result = last.find((b) => b.type === 'tool_result')!;
  return { content: JSON.stringify(result.content), ...(result.is_error ? { is_error: true } : {}) };
}

describe('claude with read-only tools', () => {
  it('reads the project, but never .env*, keys, .git, configured secret files or anything outside the project', async () => {
    const read = (file: string) => ({ kind: 'tool' as const, name: 'Read', input: { file_path: file } });
    mock.enqueue(
      read(join(root, '.env')),
      read(join(root, 'shop', '.env.local')),
      read(join(root, 'server.pem')),
      read(join(root, '.git', 'config')),
      read(join(root, 'config', 'vault.yml')),
      read(join(outside, 'notes.txt')),
      { kind: 'tool', name: 'Grep', input: { pattern: 'planted', path: root, output_mode: 'content' } },
      { kind: 'tool', name: 'Glob', input: { pattern: '**/*', path: outside } },
      read(join(root, 'shop', 'pricing.py')),
      { kind: 'tool', input: editAnswer('shop/pricing.py', 'if units > 10:', 'if units >= 10:') },
    );
    const fixer = claude({
      command: claudeBinary(),
      model: TEST_MODEL,
      retries: 0,
      tools: 'read',
      env: isolatedEnv(mock.url),
    });
    const ctx: FixerContext = {
      signal: new AbortController().signal,
      logger: silentLogger,
      root,
      // what the engine passes: the built-in private paths and the config's secrets.files
      privatePaths: [...PRIVATE_PATHS, 'config/vault.yml'],
    };
    const proposal = await fixer.propose(
      sampleFixRequest({ project: { name: 'shop', root, language: 'python' } }),
      ctx,
    );
    expect(proposal).toMatchObject({ verdict: 'edits' });

    const calls = mock.fixCalls();
    expect(calls).toHaveLength(10);
    const results = calls.slice(1).map(toolResult);
    const denied = /denied by your permission settings|haven't granted it|don't ask mode|not allowed|denied/i;
    // .env, .env.local, the key, .git/config, the configured file: denied by rule
    for (const r of results.slice(0, 5))
      expect(r).toMatchObject({ is_error: true, content: expect.stringMatching(denied) });
    // outside the project: never granted
    expect(results[5]).toMatchObject({ is_error: true, content: expect.stringMatching(denied) });
    // a search finds nothing in the denied files, and nothing outside the project is listed
    expect(results[6]!.content).not.toContain('planted');
    expect(results[7]!.content).not.toContain('notes.txt');
    // the project's own source is read
    expect(results[8]!.content).toContain('if units > 10:');
    const sent = JSON.stringify(mock.requests.map((r) => r.body));
    for (const value of Object.values(SECRETS)) expect(sent).not.toContain(value);
  });

  it('never reads .envrc, .npmrc, netrc, .pypirc, tfvars, credentials or keys, nor the home, whatever the user allows', async () => {
    const read = (file: string) => ({ kind: 'tool' as const, name: 'Read', input: { file_path: file } });
    const env = isolatedEnv(mock.url);
    const home = env.HOME!;
    // The user's own settings open the whole home to reads: suture's deny rules still win.
    writeFileSync(
      join(home, '.claude', 'settings.json'),
      JSON.stringify({ permissions: { allow: ['Read(~/**)'] } }),
    );
    const aws = 'aws-home-planted-1717';
    mkdirSync(join(home, '.aws'));
    writeFileSync(join(home, '.aws', 'credentials'), `[default]\naws_secret_access_key = ${aws}\n`);
    writeFileSync(join(home, '.npmrc'), `//registry.npmjs.org/:_authToken=${SECRETS.npmrc}-home\n`);
    const earlier = { calls: mock.fixCalls().length, requests: mock.requests.length };
    mock.enqueue(
      ...CREDENTIAL_FILES.map(([file]) => read(join(root, file))),
      read(join(home, '.aws', 'credentials')),
      read(join(home, '.npmrc')),
      { kind: 'tool', name: 'Grep', input: { pattern: 'planted', path: root, output_mode: 'content' } },
      read(join(root, 'shop', 'pricing.py')),
      { kind: 'tool', input: editAnswer('shop/pricing.py', 'if units > 10:', 'if units >= 10:') },
    );
    const fixer = claude({
      command: claudeBinary(),
      model: TEST_MODEL,
      retries: 0,
      tools: 'read',
      maxTurns: 20,
      env,
    });
    const ctx: FixerContext = {
      signal: new AbortController().signal,
      logger: silentLogger,
      root,
      privatePaths: [...PRIVATE_PATHS, 'config/vault.yml'],
    };
    const proposal = await fixer.propose(
      sampleFixRequest({ project: { name: 'shop', root, language: 'python' } }),
      ctx,
    );
    expect(proposal).toMatchObject({ verdict: 'edits' });
    const calls = mock.fixCalls().slice(earlier.calls);
    const denials = CREDENTIAL_FILES.length + 2;
    expect(calls).toHaveLength(denials + 3);
    const results = calls.slice(1).map(toolResult);
    const denied = /denied by your permission settings|haven't granted it|don't ask mode|not allowed|denied/i;
    results
      .slice(0, denials)
      .forEach((r, i) =>
        expect(r, `read ${i + 1}`).toMatchObject({ is_error: true, content: expect.stringMatching(denied) }),
      );
    expect(results[denials]!.content).not.toContain('planted');
    expect(results[denials + 1]!.content).toContain('if units > 10:');
    const sent = JSON.stringify(mock.requests.slice(earlier.requests).map((r) => r.body));
    for (const value of [...Object.values(SECRETS), aws]) expect(sent).not.toContain(value);
  });
});
