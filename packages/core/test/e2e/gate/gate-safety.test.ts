import { spawn } from 'node:child_process';
import { cp, mkdir, readFile, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { GateReport } from '../../../src/api/contracts/report.js';
import { UnrecoveredJournalError } from '../../../src/engine/gate.js';
import { API_VERSION, type Fixer, type Reporter } from '../../../src/api/plugin.js';
import { scriptedFixer } from '../../../src/testing/scripted-fixer.js';
import { hasJournal, Journal } from '../../../src/safety/journal.js';
import { acquireLock } from '../../../src/safety/lock.js';
import { FIX_ADD, FIXTURE, gate, hashTree, project, sandboxes } from './support.js';

const { box } = sandboxes();

describe('runGate workspace safety', () => {
  it('refuses to start over an unrecovered journal, touching nothing and releasing the lock', async () => {
    const b = await box();
    const journal = await Journal.create(b.root, 'crashed');
    await journal.write('src/math.mjs', 'half-done\n');
    const fixer = scriptedFixer([FIX_ADD]);
    const err = await gate(b, [fixer], { mode: 'fix' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnrecoveredJournalError);
    expect((err as Error).message).toContain('suture recover');
    expect(fixer.requests).toHaveLength(0);
    expect(await readFile(join(b.root, 'src/math.mjs'), 'utf8')).toBe('half-done\n');
    expect(await hasJournal(b.root)).toBe(true);
    const lock = await acquireLock(b.root, 'next');
    await lock.release();
  });

  it('refuses to start while another live run holds the lock, naming its pid', async () => {
    const b = await box();
    const held = await acquireLock(b.root, 'other');
    try {
      await expect(gate(b, [scriptedFixer([FIX_ADD])])).rejects.toThrow(`pid ${process.pid}`);
    } finally {
      await held.release();
    }
  });

  it('takes over the stale lock of a dead run with a warning and gates', async () => {
    const b = await box();
    const dead = spawn(process.execPath, ['-e', '0']);
    await new Promise((resolve) => dead.on('exit', resolve));
    await mkdir(join(b.root, '.suture'), { recursive: true });
    await writeFile(
      join(b.root, '.suture/lock'),
      JSON.stringify({
        pid: dead.pid,
        hostname: hostname(),
        startedAt: '2026-01-01T00:00:00.000Z',
        runId: 'dead',
      }),
    );
    const report = await gate(b, [scriptedFixer([FIX_ADD])], { mode: 'fix' });
    expect(report.projects[0]!.status).toBe('healed');
    expect(b.logs.join('\n')).toContain(`took over a stale lock left by pid ${dead.pid}`);
    await expect(readFile(join(b.root, '.suture/lock'))).rejects.toThrow(/ENOENT/);
  });

  it("keeps a user's edit made during the run and reports it as a conflict", async () => {
    const b = await box();
    const userVersion = 'export function add(a, b) {\n  return b + a; // mine\n}\n';
    const reporter: Reporter = {
      name: 'user-at-keyboard',
      apiVersion: API_VERSION,
      onAttemptEnd: async (e) => {
        if (e.attempt.verdict === 'healed') await writeFile(join(b.root, 'src/math.mjs'), userVersion);
      },
    };
    const report = await gate(b, [scriptedFixer([FIX_ADD])], {
      mode: 'check',
      reporters: [reporter],
      healConfig: { regression: false },
    });
    expect(report.conflicts).toEqual([
      { file: 'src/math.mjs', reason: expect.stringContaining('your version was kept') },
    ]);
    expect(await readFile(join(b.root, 'src/math.mjs'), 'utf8')).toBe(userVersion);
    expect(await hasJournal(b.root)).toBe(false);
  });

  it('on abort, restores the tree and reports the run as cancelled (130), not as an error', async () => {
    const b = await box();
    const before = await hashTree(b.root);
    const controller = new AbortController();
    const fixer = scriptedFixer([
      () => {
        controller.abort();
        return FIX_ADD;
      },
    ]);
    const report = await gate(b, [fixer], { mode: 'fix', signal: controller.signal });
    expect(report.exitCode).toBe(130);
    expect(report.cancelled).toBe(true);
    expect(report.error).toBeUndefined();
    expect(report.projects.map((p) => p.status)).toEqual(['cancelled']);
    // whatever its heal's validation said, the tree was restored: nothing of it is applied
    expect(report.projects[0]!.failures.filter((f) => f.applied === true)).toEqual([]);
    expect(await hashTree(b.root)).toEqual(before);
    expect(await hasJournal(b.root)).toBe(false);
  });

  it('gives each fixer call its own signal, aborted after the call and when the gate is aborted while a fixer hangs', async () => {
    const b = await box();
    const before = await hashTree(b.root);
    const controller = new AbortController();
    const signals: AbortSignal[] = [];
    const hanging: Fixer = {
      name: 'hangs',
      apiVersion: API_VERSION,
      propose: (_req, ctx) => {
        signals.push(ctx.signal);
        if (signals.length === 1)
          return Promise.resolve({ verdict: 'unfixable', diagnosis: 'first call answers' });
        setImmediate(() => controller.abort());
        return new Promise(() => undefined);
      },
    };
    const second: Fixer = { ...hanging, name: 'hangs-too' };
    const report = await gate(b, [hanging, second], { mode: 'fix', signal: controller.signal });
    expect(signals).toHaveLength(2);
    expect(signals[0]).not.toBe(signals[1]);
    expect(signals.every((s) => s.aborted)).toBe(true);
    const attempts = report.projects[0]!.failures[0]!.attempts;
    expect(attempts.map((a) => a.verdict)).toEqual(['unfixable', 'fixer-error']);
    expect(attempts[1]!.reason).toContain('interrupted');
    expect(report.exitCode).toBe(130);
    expect(await hashTree(b.root)).toEqual(before);
  });

  it('calls onRunEnd with a partial report when the gate fails internally, and exits 3', async () => {
    const b = await box();
    const notAFolder = join(b.root, 'README.md');
    const ended: GateReport[] = [];
    const reporter: Reporter = { name: 'end', apiVersion: API_VERSION, onRunEnd: (r) => void ended.push(r) };
    const report = await gate(b, [], { outputDir: notAFolder, reporters: [reporter] });
    expect(report.exitCode).toBe(3);
    expect(report.error).toMatch(/ENOTDIR|EEXIST/);
    expect(ended).toHaveLength(1);
    expect(ended[0]!.runId).toBe(report.runId);
    expect(await hasJournal(b.root)).toBe(false);
    await expect(acquireLock(b.root, 'after').then((l) => l.release())).resolves.toBeUndefined();
  });

  it('gates several projects in parallel and sums the totals', async () => {
    const a = await box();
    await cp(FIXTURE, join(a.root, 'sub'), { recursive: true });
    const fixer = scriptedFixer([FIX_ADD]);
    const report = await gate(a, [fixer], {
      mode: 'fix',
      concurrency: 2,
      projects: [project(a.root, { name: 'one' }), project(join(a.root, 'sub'), { name: 'two' })],
    });
    expect(report.projects.map((p) => p.name)).toEqual(['one', 'two']);
    expect(report.projects.map((p) => p.status).sort()).toEqual(['failed', 'healed']);
    expect(report.totals).toMatchObject({ failures: 2, healed: 1 });
    expect(report.exitCode).toBe(1);
  });

  it('refuses a project outside the repository root', async () => {
    const a = await box();
    await expect(gate(a, [], { projects: [project('/tmp', { name: 'out' })] })).rejects.toThrow(
      /outside the repository root/,
    );
  });
});
