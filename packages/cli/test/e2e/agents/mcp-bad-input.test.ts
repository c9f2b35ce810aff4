import { spawn } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { processGone } from '@suture/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, cleanup } from '../cli-support.js';
import { call, connectSuture, exampleRepo, snapshot, type Connected } from './support.js';

afterAll(cleanup);

const DISCONNECT = fileURLToPath(new URL('../../harness/mcp-disconnect.mjs', import.meta.url));
const STOCK_TESTS = ['tests/test_stock.py::test_total_units', 'tests/test_stock.py::test_needs_reorder'];

const sessions = async (dir: string): Promise<string[]> =>
  readdir(join(dir, '.suture', 'sessions')).catch(() => [] as string[]);

describe('bad input to suture_heal: a clear error naming the argument, nothing started', () => {
  let dir: string;
  let server: Connected;
  beforeAll(async () => {
    dir = await exampleRepo(['python']);
    server = await connectSuture(dir);
  });
  afterAll(async () => {
    await server?.client.close();
  });

  it.each([
    [
      'an unknown session id',
      { change_description: 'x', session_id: 's-does-not-exist' },
      /session_id: unknown session "s-does-not-exist" in .*\.suture\/sessions: omit session_id to start a new session/,
    ],
    [
      'a path outside the root',
      { change_description: 'x', allowed_paths: ['../elsewhere/**'] },
      /allowed_paths: "\.\.\/elsewhere\/\*\*" is outside the repository root .*; give globs relative to it/,
    ],
    [
      'an absolute path',
      { change_description: 'x', allowed_paths: ['/etc/**'] },
      /allowed_paths: "\/etc\/\*\*" is outside the repository root/,
    ],
    [
      'an empty change description',
      { change_description: '  ' },
      /change_description is empty: say in a sentence what you changed and why/,
    ],
    ['an unknown project', { change_description: 'x', projects: ['web'] }, /projects: unknown project "web"/],
  ])('%s', async (_what, args, message) => {
    const before = await snapshot(dir);
    const result = await call(server.client, 'suture_heal', args);
    expect(result.isError).toBe(true);
    expect(result.content[0]!.text).toMatch(message);
    expect(await sessions(dir)).toEqual([]);
    expect(await snapshot(dir)).toEqual(before);
  });
});

describe('two calls on one repository at once', () => {
  it('queues a second call to the same server and answers both', async () => {
    const dir = await exampleRepo(['python']);
    const { client } = await connectSuture(dir);
    try {
      const progress: string[][] = [[], []];
      const [a, b] = await Promise.all(
        [0, 1].map((i) =>
          call(client, 'suture_heal', { change_description: `call ${i}`, tests: STOCK_TESTS }, (m) =>
            progress[i]!.push(m),
          ),
        ),
      );
      for (const r of [a!, b!]) expect((r.structuredContent as { status: string }).status).toBe('fixed');
      expect(progress.flat().filter((m) => m.startsWith('queued behind an earlier call'))).toHaveLength(1);
      expect((await sessions(dir)).length).toBe(2);
    } finally {
      await client.close();
    }
  }, 600_000);

  it("refuses a call while another server's heal holds the repository, naming that process", async () => {
    const dir = await exampleRepo(['python']);
    const first = await connectSuture(dir);
    const second = await connectSuture(dir);
    try {
      let holding!: () => void;
      const held = new Promise<void>((resolve) => (holding = resolve));
      const running = call(
        first.client,
        'suture_heal',
        { change_description: 'first', tests: STOCK_TESTS },
        (m) => {
          if (m.startsWith('copying')) holding();
        },
      );
      await held;
      const refused = await call(second.client, 'suture_heal', { change_description: 'second' });
      expect(refused.isError).toBe(true);
      expect(refused.content[0]!.text).toMatch(
        new RegExp(
          `the repository is busy: another suture run \\(pid ${first.transport.pid}, .*call again when it is done`,
        ),
      );
      expect(((await running).structuredContent as { status: string }).status).toBe('fixed');
      // The refused call started nothing: only the first call's session exists.
      expect((await sessions(dir)).length).toBe(1);
    } finally {
      await first.client.close();
      await second.client.close();
    }
  }, 600_000);
});

describe('a client that disconnects mid-run', () => {
  it('stops the heal, removes its copy and the lock, writes nothing, and records the call as interrupted', async () => {
    const dir = await exampleRepo(['python']);
    const before = await snapshot(dir);
    const child = spawn(
      process.execPath,
      [
        DISCONNECT,
        BIN,
        dir,
        JSON.stringify({ change_description: 'mid-run' }),
        'verify: python: attempt 1 healed',
      ],
      { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (err += c.toString('utf8')));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    const lines = out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { server?: number; progress?: string });
    expect(code, err).toBe(0);
    expect(lines[1]?.progress).toMatch(/^verify: python: attempt 1 healed/);
    const server = lines[0]!.server!;
    // The server notices the closed stdin, stops the gate and cleans up before it exits.
    expect(await processGone(server, 120_000), err).toBe(true);
    expect(err).toMatch(/stopping 1 call\(s\): the client closed the connection/);
    expect(await readdir(join(dir, '.suture', 'heal')).catch(() => 'gone')).toBe('gone');
    expect(await readdir(join(dir, '.suture'))).not.toContain('lock');
    expect(await snapshot(dir)).toEqual(before);
    const [id] = await sessions(dir);
    const state = JSON.parse(
      await readFile(join(dir, '.suture', 'sessions', id!, 'session.json'), 'utf8'),
    ) as {
      running?: unknown;
      interrupted?: { call: number; reason: string };
      patches: Record<string, unknown>;
    };
    expect(state.running).toBeUndefined();
    expect(state.interrupted).toMatchObject({ call: 1, reason: expect.stringMatching(/interrupted/) });
    expect(state.patches).toEqual({});
    // Nothing is left to block the next call.
    const next = await connectSuture(dir);
    try {
      const answer = await call(next.client, 'suture_heal', {
        change_description: 'again',
        tests: STOCK_TESTS,
      });
      expect((answer.structuredContent as { status: string }).status).toBe('fixed');
    } finally {
      await next.client.close();
    }
  }, 600_000);
});
