import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { requireIsolation } from '../workspace/isolation.test-support.js';
import { joinCommand } from './command.js';
import { processAlive } from '../process/process-groups.js';
import { HolderError, spawnHolder, startHolder, type Holder } from './holder.js';
import { findSandboxTools, type SandboxTools } from './tools.js';

const run = promisify(execFile);
let base: string;
const holders: Holder[] = [];

beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'suture-holder-'));
});
afterEach(async () => {
  for (const h of holders.splice(0)) await h.close();
  await rm(base, { recursive: true, force: true });
});

function tools(): SandboxTools {
  const found = findSandboxTools();
  if ('missing' in found) throw new Error(`missing ${found.missing.join(', ')}`);
  return found;
}

/** Runs `script` in the holder's namespaces as the user, as a workspace's runs do. */
async function inside(holder: Holder, script: string): Promise<string> {
  const cmd = joinCommand(
    tools(),
    { holder: holder.pid, network: false, uid: process.getuid!(), gid: process.getgid!(), procMount: false },
    base,
    'sh',
    ['-c', script],
  );
  return (await run(cmd.file, cmd.args, { cwd: base })).stdout;
}

describe('a sandbox holder', () => {
  it('mounts its whole setup in order: read-only outside, writable binds whose names need quoting', async (t) => {
    await requireIsolation(t);
    // A quote, a space and a dollar: the setup's mount commands must pass them through unchanged.
    const odd = join(base, "it's a $dir");
    const outside = join(base, 'outside');
    await mkdir(odd);
    await mkdir(outside);
    const holder = await startHolder(tools(), [{ op: 'read-only' }, { op: 'bind', src: odd, dst: odd }], {
      network: false,
    });
    holders.push(holder);
    expect(holder.facts.readOnly).toBe(true);
    const out = await inside(
      holder,
      `echo in > "${odd.replace(/\$/g, '\\$')}/f" && echo wrote-bind; echo out > ${outside}/f 2>&1 || echo refused-outside`,
    );
    expect(out).toContain('wrote-bind');
    expect(out).toContain('refused-outside');
    expect(await readFile(join(odd, 'f'), 'utf8')).toBe('in\n');
    await expect(readFile(join(outside, 'f'))).rejects.toThrow(/ENOENT/);
  });

  it('brings up the loopback of its own network beside the mounts', async (t) => {
    await requireIsolation(t);
    const ip = tools().ip;
    if (!ip) return t.skip('ip (iproute2) is not installed');
    const holder = await startHolder(tools(), [{ op: 'loopback', ip }, { op: 'read-only' }], {
      network: true,
    });
    holders.push(holder);
    expect(holder.facts).toEqual({ network: true, readOnly: true, readOnlyFailures: [] });
    const cmd = joinCommand(
      tools(),
      { holder: holder.pid, network: true, uid: process.getuid!(), gid: process.getgid!(), procMount: false },
      base,
      ip,
      ['-o', 'link', 'show'],
    );
    const links = (await run(cmd.file, cmd.args, { cwd: base })).stdout.trim().split('\n');
    // a network of its own: the loopback alone, and up
    expect(links).toHaveLength(1);
    expect(links[0]).toMatch(/^1: lo: <LOOPBACK,UP,LOWER_UP>/);
  });

  it('starts before its setup is known, and is set up once told, or ends without a process when abandoned', async (t) => {
    await requireIsolation(t);
    const dir = join(base, 'later');
    await mkdir(dir);
    const pending = spawnHolder(tools(), { network: false });
    // what to mount is decided while the agent starts
    await new Promise((resolve) => setTimeout(resolve, 50));
    const holder = await pending.setup([{ op: 'read-only' }, { op: 'bind', src: dir, dst: dir }]);
    holders.push(holder);
    expect(holder.pid).toBe(pending.pid);
    expect(await inside(holder, `echo in > ${dir}/f && cat ${dir}/f`)).toBe('in\n');

    const abandoned = spawnHolder(tools(), { network: false });
    expect(processAlive(-abandoned.pid!)).toBe(true);
    await abandoned.abandon();
    expect(processAlive(-abandoned.pid!)).toBe(false);
  });

  it('answers requests sent together, each answer whole, when requests and answers outgrow a pipe', async (t) => {
    await requireIsolation(t);
    const dir = join(base, 'files');
    await mkdir(dir);
    const holder = await startHolder(tools(), [{ op: 'read-only' }, { op: 'bind', src: dir, dst: dir }], {
      network: false,
    });
    holders.push(holder);
    // 600 KiB each, base64 on the wire: every request and answer is several reads of the pipe, and
    // a multi-byte name may be cut between two of them
    const bodies = [0, 1, 2, 3, 4, 5].map((n) => Buffer.alloc(600 * 1024, 97 + n));
    const name = (n: number): string => join(dir, `é-${n}-ü.txt`);
    await Promise.all(
      bodies.map((b, n) => holder.request('write', { path: name(n), data: b.toString('base64') })),
    );
    for (const [n, b] of bodies.entries()) expect((await readFile(name(n))).equals(b)).toBe(true);
    const read = await Promise.all(
      bodies.map((_, n) => holder.request<string | null>('read', { path: name(n) })),
    );
    for (const [n, data] of read.entries())
      expect(Buffer.from(data!, 'base64').equals(bodies[n]!)).toBe(true);
    expect(await holder.request('read', { path: join(dir, 'none') })).toBeNull();
  }, 30_000);

  it("fails its start with mount's own reason when a step of the setup cannot be done", async (t) => {
    await requireIsolation(t);
    const missing = join(base, 'no-such-folder');
    const start = startHolder(tools(), [{ op: 'bind', src: missing, dst: join(base, 'dst') }], {
      network: false,
    });
    await expect(start).rejects.toThrow(HolderError);
    await expect(start).rejects.toThrow(/could not be set up: .*no-such-folder/);
  });

  it('stops at a failed step after the read-only remounts, which one mount --all does, with that step named', async (t) => {
    await requireIsolation(t);
    const missing = join(base, 'gone');
    const start = startHolder(
      tools(),
      [{ op: 'read-only' }, { op: 'bind', src: missing, dst: join(base, 'dst') }],
      { network: false },
    );
    // the folder outside is read-only by then: the bind cannot make its mount point
    await expect(start).rejects.toThrow(/could not be set up: .*dst: mount point does not exist/);
  });
});
