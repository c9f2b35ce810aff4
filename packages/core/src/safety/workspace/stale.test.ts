import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { sweepStaleViews } from './stale.js';
import { ROOT_FILE } from './state-dir.js';

let base: string;
afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

describe('sweepStaleViews', () => {
  it("removes a dead run's layers and the state of a project that is gone, and keeps the rest", async () => {
    base = await mkdtemp(join(tmpdir(), 'suture-stale-'));
    const dead = spawnSync(process.execPath, ['-e', '0']).pid;
    const live = join(base, 'ws-live');
    const gone = join(base, 'ws-gone');
    await mkdir(join(live, `view-${dead}-00aa11bb`, 'rw', 'work', 'work'), { recursive: true });
    await mkdir(join(live, `view-${process.pid}-00cc22dd`), { recursive: true });
    await mkdir(join(live, 'tmp'), { recursive: true });
    await writeFile(join(live, ROOT_FILE), base);
    await mkdir(join(gone, 'copy'), { recursive: true });
    await writeFile(join(gone, ROOT_FILE), join(base, 'no-such-project'));
    const removed = await sweepStaleViews(base);
    expect(removed.sort()).toEqual([gone, join(live, `view-${dead}-00aa11bb`)].sort());
    expect((await readdir(base)).sort()).toEqual(['ws-live']);
    expect((await readdir(live)).sort()).toEqual([ROOT_FILE, 'tmp', `view-${process.pid}-00cc22dd`].sort());
  });
});
