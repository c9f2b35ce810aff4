import { spawn } from 'node:child_process';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { stopRecordedProcessGroups, withProcessGroupRecord } from './process-groups.js';
import { runProcess } from './run-process.js';

const dirs: string[] = [];
afterEach(async () => {
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});
async function folder(): Promise<string> {
  const d = await mkdtemp(join(tmpdir(), 'suture-groups-'));
  dirs.push(d);
  return d;
}
const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('recorded process groups', () => {
  it('records each group while it runs and forgets it once it is gone', async () => {
    const dir = join(await folder(), 'procs');
    let during: string[] = [];
    await withProcessGroupRecord(dir, async () => {
      const run = runProcess('sh', ['-c', 'sleep 0.5'], {
        cwd: tmpdir(),
        env: process.env,
        timeoutMs: 10_000,
      });
      await new Promise((r) => setTimeout(r, 200));
      during = await readdir(dir);
      await run;
    });
    expect(during).toHaveLength(1);
    await expect(readdir(dir)).rejects.toThrow(/ENOENT/);
  });

  it('kills a live recorded group, leaves a pid that now belongs to another process, and clears the record', async () => {
    const dir = await folder();
    const group = spawn('sh', ['-c', 'sleep 60 & sleep 60'], { detached: true, stdio: 'ignore' });
    const other = spawn('sh', ['-c', 'sleep 60'], { detached: true, stdio: 'ignore' });
    try {
      await writeFile(join(dir, String(group.pid)), JSON.stringify({ pgid: group.pid, command: 'sleep' }));
      // the same pid, but the record says it started at another time: a newer process
      await writeFile(
        join(dir, String(other.pid)),
        JSON.stringify({ pgid: other.pid, startTime: '1', command: 'old' }),
      );
      await writeFile(join(dir, '999999999'), JSON.stringify({ pgid: 999999999, command: 'long gone' }));
      const stopped = await stopRecordedProcessGroups(dir);
      expect(stopped).toEqual([{ pgid: group.pid, command: 'sleep' }]);
      await new Promise((r) => setTimeout(r, 200));
      expect(alive(group.pid!)).toBe(false);
      expect(alive(other.pid!)).toBe(true);
      expect(await readdir(dir)).toEqual([]);
    } finally {
      other.kill('SIGKILL');
      try {
        process.kill(-group.pid!, 'SIGKILL');
      } catch {
        // already stopped
      }
    }
  });
});
