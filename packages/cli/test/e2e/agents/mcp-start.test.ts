import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, REPO, cleanup } from '../cli-support.js';
import { exampleRepo } from './support.js';

afterAll(cleanup);

// A client starts the server and waits for its answer to `initialize` (the real `claude` CLI
// shows "still connecting" until then). The answer must not wait for suture's engine to load:
// the module hooks of hold-host/ hold @suture/core/host until the test releases it.
const HOOKS = fileURLToPath(new URL('./hold-host/register.mjs', import.meta.url));
const SUTURE_MCP = join(REPO, 'packages/mcp/bin/suture-mcp.mjs');

interface Message {
  id?: number;
  result?: Record<string, unknown>;
  error?: unknown;
}

async function until(what: () => boolean, why: () => string): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (what()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(why());
}

describe('the MCP server answers the handshake before suture has loaded', () => {
  it.each([
    { server: 'suture mcp', args: [BIN, 'mcp'] },
    { server: 'suture-mcp', args: [SUTURE_MCP] },
  ])(
    '$server: initialize and ping are answered while the engine is held, the tools are listed once it loads',
    async ({ args }) => {
      const dir = await exampleRepo(['python']);
      const hold = await mkdtemp(join(tmpdir(), 'suture-hold-'));
      const child = spawn(process.execPath, ['--import', HOOKS, ...args], {
        cwd: dir,
        env: { ...process.env, SUTURE_TEST_HOLD_DIR: hold },
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      const messages: Message[] = [];
      let stderr = '';
      let rest = '';
      child.stdout.on('data', (chunk: Buffer) => {
        const lines = (rest + chunk.toString()).split('\n');
        rest = lines.pop()!;
        for (const line of lines) if (line.trim()) messages.push(JSON.parse(line) as Message);
      });
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const send = (message: object): void =>
        void child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
      const answer = (id: number): Message | undefined => messages.find((m) => m.id === id);
      const waitFor = (id: number): Promise<void> =>
        until(
          () => answer(id) !== undefined,
          () => `no answer to request ${id} within a minute; stderr:\n${stderr}`,
        );
      try {
        send({
          id: 1,
          method: 'initialize',
          params: {
            protocolVersion: '2025-06-18',
            capabilities: {},
            clientInfo: { name: 'test', version: '1' },
          },
        });
        await waitFor(1);
        expect(answer(1)!.result).toMatchObject({
          serverInfo: { name: 'suture' },
          capabilities: { tools: { listChanged: true } },
        });
        send({ method: 'notifications/initialized' });
        send({ id: 2, method: 'ping' });
        await waitFor(2);
        expect(answer(2)!.result).toEqual({});

        // The engine is asked for and still held: the tool list waits for it, it is never empty.
        send({ id: 3, method: 'tools/list' });
        await until(
          () => existsSync(join(hold, 'requested')),
          () => `the server never loaded @suture/core/host; stderr:\n${stderr}`,
        );
        expect(answer(3)).toBeUndefined();
        await writeFile(join(hold, 'release'), '');
        await waitFor(3);
        const tools = (answer(3)!.result as { tools: Array<{ name: string }> }).tools;
        expect(tools.map((t) => t.name).sort()).toEqual([
          'suture_apply',
          'suture_heal',
          'suture_report',
          'suture_run',
        ]);
      } finally {
        child.kill();
        await rm(hold, { recursive: true, force: true });
      }
    },
    120_000,
  );
});
