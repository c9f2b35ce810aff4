import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer } from 'node:net';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { tmpdir } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, suture, workspace } from './cli-support.js';

// `suture doctor` with the LLM fixers of a config: each configured endpoint is probed with the
// key the fixer would send, so an endpoint that is down makes doctor fail and name it, in both
// modes of the claude fixer (the real claude binary in CLI mode) and for the OpenAI fixer.

const require = createRequire(import.meta.url);
const pkgFile = require.resolve('@anthropic-ai/claude-code/package.json');
const CLAUDE = join(
  dirname(pkgFile),
  (JSON.parse(readFileSync(pkgFile, 'utf8')) as { bin: { claude: string } }).bin.claude,
);

/** A local URL nothing listens on: a port that was free a moment ago. */
async function deadURL(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

/** An endpoint whose models list answers both APIs; it never serves a completion. */
let live: { url: string; server: Server; seen: string[] };
let claudeHome: string;

beforeAll(async () => {
  const seen: string[] = [];
  const server = createHttpServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    if (req.method === 'GET' && req.url?.startsWith('/v1/models')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ object: 'list', data: [{ id: 'gpt-4.1-mini', object: 'model' }] }));
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  live = { url: `http://127.0.0.1:${port}`, server, seen };
  claudeHome = await mkdtemp(join(tmpdir(), 'suture-doctor-claude-'));
  await mkdir(join(claudeHome, '.claude'));
});

afterAll(async () => {
  await new Promise<void>((resolve) => live.server.close(() => resolve()));
  await rm(claudeHome, { recursive: true, force: true });
  await cleanup();
});

/** A pytest project and a config with the three LLM fixer setups, each pointed at `urls`. */
async function repository(urls: { cli: string; api: string; openai: string }): Promise<string> {
  const dir = await workspace();
  await mkdir(join(dir, 'tests'));
  await writeFile(join(dir, 'tests/test_ok.py'), 'def test_ok():\n    assert True\n');
  const claudeEnv = {
    HOME: claudeHome,
    CLAUDE_CONFIG_DIR: join(claudeHome, '.claude'),
    DISABLE_AUTOUPDATER: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
  };
  const config = {
    projects: [{ name: 'app', root: '.', runner: 'pytest' }],
    fixers: [
      ['claude', { command: CLAUDE, baseURL: urls.cli, env: claudeEnv }],
      ['claude', { mode: 'api', baseURL: urls.api }],
      ['openai', { model: 'gpt-4.1-mini', baseURL: `${urls.openai}/v1` }],
    ],
  };
  await writeFile(join(dir, 'suture.config.json'), `${JSON.stringify(config, null, 2)}\n`);
  return dir;
}

const keys = { ANTHROPIC_API_KEY: 'sk-ant-doctor-0123456789', OPENAI_API_KEY: 'sk-doctor-0123456789' };

describe('suture doctor with LLM fixers', () => {
  it('is not ready when the endpoints are down, and names each one that failed', async () => {
    const dead = { cli: await deadURL(), api: await deadURL(), openai: await deadURL() };
    const dir = await repository(dead);
    const r = await suture(['doctor'], dir, keys);
    const claude = '@suture/llm-claude-cli';
    const fix = 'fix: start the server or fix the fixer option "baseURL"';
    expect(r.stdout).toContain(`ERROR ${claude}: cannot reach ${dead.cli}: ECONNREFUSED\n      ${fix}`);
    expect(r.stdout).toContain(`ERROR ${claude}: cannot reach ${dead.api}: ECONNREFUSED\n      ${fix}`);
    expect(r.stdout).toContain(
      `ERROR @suture/llm-openai: cannot connect to ${dead.openai}/v1/models (ECONNREFUSED)`,
    );
    expect(r.stdout).toContain(
      `fix: start the server at ${dead.openai}/v1, or fix the fixer option "baseURL"`,
    );
    expect(r.stdout).toContain('3 problem(s) found');
    expect(r.stdout).not.toContain('suture is ready');
    expect(r.code).toBe(1);
  });

  it('is ready when each endpoint answers its models list, and sends no prompt', async () => {
    const dir = await repository({ cli: live.url, api: live.url, openai: live.url });
    const r = await suture(['doctor'], dir, keys);
    const claude = `ok    @suture/llm-claude-cli: ${live.url} answers and takes the key from $ANTHROPIC_API_KEY`;
    expect(r.stdout.split('\n').filter((line) => line === claude)).toHaveLength(2);
    expect(r.stdout).toContain(`ok    @suture/llm-openai: ${live.url}/v1 answers: 1 model(s) listed`);
    expect(r.stdout).toContain('suture is ready');
    expect(r.code).toBe(0);
    expect(live.seen.filter((s) => s.startsWith('POST'))).toEqual([]);
    expect(live.seen.filter((s) => s.startsWith('GET /v1/models'))).toHaveLength(3);
  });
});
