import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runProcess } from './run-process.js';
import { TailBuffer } from './tail-buffer.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'suture-proc-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function waitFor(pred: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (pred()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return pred();
}

describe('runProcess', () => {
  it('returns the exit code and the output', async () => {
    const r = await runProcess('sh', ['-c', 'echo out; echo err >&2; exit 3'], {
      cwd: dir,
      env: process.env,
      timeoutMs: 10_000,
    });
    expect(r.exitCode).toBe(3);
    expect(r.timedOut).toBe(false);
    expect(r.output).toContain('out');
    expect(r.output).toContain('err');
  });

  it('kills the whole group at the timeout, children that ignore SIGTERM and outlive their parent included', async () => {
    const pids = join(dir, 'pids');
    // The leader forks a grandchild that ignores SIGTERM and detaches from the leader's lifetime.
    const script = `
      trap '' TERM
      (trap '' TERM; sh -c 'trap "" TERM; echo $$ >> ${pids}; while :; do sleep 1; done' & ) 
      sh -c 'trap "" TERM; echo $$ >> ${pids}; while :; do sleep 1; done' &
      echo $$ >> ${pids}
      while :; do sleep 1; done`;
    const r = await runProcess('sh', ['-c', script], {
      cwd: dir,
      env: process.env,
      timeoutMs: 800,
      killGraceMs: 300,
    });
    expect(r.timedOut).toBe(true);
    const started = (await readFile(pids, 'utf8')).trim().split('\n').map(Number);
    expect(started.length).toBe(3);
    expect(await waitFor(() => started.every((pid) => !alive(pid)), 5000)).toBe(true);
  });

  it('kills the group when aborted', async () => {
    const controller = new AbortController();
    const promise = runProcess('sh', ['-c', 'sleep 30'], {
      cwd: dir,
      env: process.env,
      timeoutMs: 60_000,
      signal: controller.signal,
      killGraceMs: 200,
    });
    setTimeout(() => controller.abort(), 200);
    const r = await promise;
    expect(r.aborted).toBe(true);
    expect(r.durationMs).toBeLessThan(20_000);
  });

  it('reports a missing executable as a spawn error', async () => {
    const r = await runProcess('suture-no-such-binary', [], { cwd: dir, env: process.env, timeoutMs: 5000 });
    expect(r.spawnError).toMatch(/ENOENT/);
    expect(r.exitCode).toBeNull();
  });

  it('keeps only a bounded tail of a large output', async () => {
    const r = await runProcess('sh', ['-c', 'yes 0123456789 | head -c 5000000; echo LAST-LINE'], {
      cwd: dir,
      env: process.env,
      timeoutMs: 30_000,
      tailBytes: 4096,
    });
    expect(r.outputBytes).toBeGreaterThan(5_000_000);
    expect(r.output.length).toBeLessThan(4096 + 200);
    expect(r.output).toContain('LAST-LINE');
    expect(r.output).toMatch(/output truncated/);
  });

  it('passes the environment as given, colour variables included, and strips the colour a child prints', async () => {
    // The child colours its output as a CLI library does: unless NO_COLOR is set.
    const script =
      "const { NO_COLOR, FORCE_COLOR, PY_COLORS } = process.env; console.log(NO_COLOR ?? 'no-NO_COLOR', FORCE_COLOR ?? 'no-FORCE_COLOR', PY_COLORS ?? 'no-PY_COLORS'); if (NO_COLOR === undefined) process.stdout.write('\\x1b[32mgreen\\x1b[39m plain\\n');";
    const env = { ...process.env };
    for (const key of ['NO_COLOR', 'FORCE_COLOR', 'PY_COLORS', 'CLICOLOR_FORCE']) delete env[key];
    const plain = await runProcess(process.execPath, ['-e', script], { cwd: dir, env, timeoutMs: 10_000 });
    expect(plain.output).toBe('no-NO_COLOR no-FORCE_COLOR no-PY_COLORS\ngreen plain\n');
    const forced = await runProcess(process.execPath, ['-e', script], {
      cwd: dir,
      env: { ...env, FORCE_COLOR: '3' },
      timeoutMs: 10_000,
    });
    expect(forced.output).toBe('no-NO_COLOR 3 no-PY_COLORS\ngreen plain\n');
  });

  it('ends when the command exits although a helper it left behind keeps stdout open, and kills the helper', async () => {
    const pids = join(dir, 'helper');
    // The helper inherits stdout and outlives its parent; the parent exits at once with code 0.
    const script = `sh -c 'echo $$ > ${pids}; exec sleep 60' & echo parent-done; exit 0`;
    const r = await runProcess('sh', ['-c', script], {
      cwd: dir,
      env: process.env,
      timeoutMs: 30_000,
      drainMs: 300,
    });
    expect(r).toMatchObject({ exitCode: 0, timedOut: false, aborted: false });
    expect(r.output).toBe('parent-done\n');
    const helper = Number((await readFile(pids, 'utf8')).trim());
    expect(await waitFor(() => !alive(helper), 5000)).toBe(true);
  });

  it('keeps what the command printed just before it exited', async () => {
    const r = await runProcess('sh', ['-c', 'yes line | head -n 20000; exit 4'], {
      cwd: dir,
      env: process.env,
      timeoutMs: 30_000,
    });
    expect(r.exitCode).toBe(4);
    expect(r.outputBytes).toBe(20000 * 5);
  });

  it('decodes characters and escapes split across chunks, and survives bytes that are not UTF-8', async () => {
    // "é" is two bytes and the escape five; each write is flushed on its own with a pause between.
    const script =
      'const w=(b)=>new Promise((r)=>process.stdout.write(Buffer.from(b),()=>setTimeout(r,30))); (async()=>{await w([0x63,0x61,0x66,0xc3]); await w([0xa9,0x20,0x1b,0x5b]); await w([0x33,0x32,0x6d,0x6f,0x6b,0x0a,0xff,0xfe,0x0a]);})();';
    const r = await runProcess(process.execPath, ['-e', script], {
      cwd: dir,
      env: process.env,
      timeoutMs: 10_000,
    });
    expect(r.output).toBe('café ok\n\ufffd\ufffd\n');
  });

  it('holds back an OSC hyperlink split across chunks, its ST terminator split too, and strips it whole', async () => {
    const script =
      "const w=(s)=>new Promise((r)=>process.stdout.write(s,()=>setTimeout(r,30))); (async()=>{await w('see \\x1b]8;;https://exa'); await w('mple.com/docs?q=1\\x07link\\x1b]8;;\\x1b'); await w('\\\\ done\\n');})();";
    const r = await runProcess(process.execPath, ['-e', script], {
      cwd: dir,
      env: process.env,
      timeoutMs: 10_000,
    });
    expect(r.output).toBe('see link done\n');
  });

  it('passes arguments without a shell, so metacharacters stay literal', async () => {
    const marker = join(dir, 'pwned');
    const arg = `x; touch ${marker}; $(touch ${marker}) \`touch ${marker}\``;
    const r = await runProcess('node', ['-e', 'process.stdout.write(process.argv[1])', arg], {
      cwd: dir,
      env: process.env,
      timeoutMs: 10_000,
    });
    expect(r.output).toBe(arg);
    await expect(readFile(marker)).rejects.toThrow(/ENOENT/);
  });

  it('feeds stdin when input is given', async () => {
    await writeFile(join(dir, 'x'), '');
    const r = await runProcess('cat', [], {
      cwd: dir,
      env: process.env,
      timeoutMs: 10_000,
      input: 'hello stdin',
    });
    expect(r.output).toBe('hello stdin');
  });

  it('kills the processes the command put in process groups of their own, as a build tool does with its jobs', async () => {
    const pidFile = join(dir, 'job.pid');
    // a job in a new process group of the same session, deaf to SIGTERM
    const job = [
      'import os, signal, time',
      'os.setpgid(0, 0)',
      'signal.signal(signal.SIGTERM, signal.SIG_IGN)',
      `open(${JSON.stringify(pidFile)}, "w").write(str(os.getpid()))`,
      'time.sleep(60)',
    ].join('\n');
    await writeFile(join(dir, 'job.py'), job);
    const r = await runProcess(
      'sh',
      ['-c', `python3 job.py </dev/null >/dev/null 2>&1 & while [ ! -s ${pidFile} ]; do sleep 0.05; done`],
      { cwd: dir, env: process.env, timeoutMs: 10_000, drainMs: 100 },
    );
    expect(r.exitCode).toBe(0);
    const pid = Number(await readFile(pidFile, 'utf8'));
    expect(pid).toBeGreaterThan(0);
    expect(await waitFor(() => !alive(pid), 3000)).toBe(true);
  });

  it('leaves no process of the run behind', async () => {
    const tag = `suture-leftover-${process.pid}-${Date.now()}`;
    await runProcess('sh', ['-c', `sh -c 'exec -a ${tag} sleep 60' & sleep 60`], {
      cwd: dir,
      env: process.env,
      timeoutMs: 500,
      killGraceMs: 200,
    });
    const gone = await waitFor(() => {
      try {
        execFileSync('pgrep', ['-f', tag]);
        return false;
      } catch {
        return true;
      }
    }, 5000);
    expect(gone).toBe(true);
  });
});

describe('TailBuffer', () => {
  it('keeps the last characters across chunk boundaries', () => {
    const t = new TailBuffer(10);
    for (const c of ['abc', 'defgh', 'ijklmnop']) t.push(c);
    expect(t.toString().endsWith('ghijklmnop')).toBe(true);
    expect(t.totalBytes).toBe(16);
  });
  it('handles a single chunk larger than the limit', () => {
    const t = new TailBuffer(4);
    t.push('0123456789');
    expect(t.toString().endsWith('6789')).toBe(true);
  });
});
