import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SWEEP_EVERY_MS, sweepStaleViews, sweepStaleViewsIfDue } from './stale.js';
import { projectStateDir, ROOT_FILE } from './state-dir.js';

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

  it('keeps a state folder whose root file another run is writing, and one opening beside the sweep', async () => {
    base = await mkdtemp(join(tmpdir(), 'suture-stale-'));
    const writing = join(base, 'ws-writing');
    await mkdir(join(writing, 'tmp'), { recursive: true });
    await writeFile(join(writing, ROOT_FILE), '');
    const project = join(base, 'project');
    await mkdir(project);
    const opening = Array.from({ length: 5 }, () => projectStateDir(project, { SUTURE_STATE_DIR: base }));
    const sweeps = Array.from({ length: 5 }, () => sweepStaleViews(base));
    const [dirs, removed] = await Promise.all([Promise.all(opening), Promise.all(sweeps)]);
    expect(removed.flat()).toEqual([]);
    expect((await readdir(base)).sort()).toEqual([basename(dirs[0]!), 'project', 'ws-writing'].sort());
    expect(await readFile(join(dirs[0]!, ROOT_FILE), 'utf8')).toBe(project);
    expect(await readdir(dirs[0]!)).toEqual([ROOT_FILE]);
  });

  it('sweeps from a run at most once per interval, and again once it is over', async () => {
    base = await mkdtemp(join(tmpdir(), 'suture-stale-'));
    const deadView = async (): Promise<string> => {
      const dead = spawnSync(process.execPath, ['-e', '0']).pid;
      const view = join(base, 'ws-p', `view-${dead}-00aa11bb`);
      await mkdir(view, { recursive: true });
      await writeFile(join(base, 'ws-p', ROOT_FILE), base);
      return view;
    };
    const now = Date.now();
    const first = await deadView();
    expect(await sweepStaleViewsIfDue(base, now)).toEqual([first]);
    const second = await deadView();
    expect(await sweepStaleViewsIfDue(base, now + 60_000)).toEqual([]);
    expect(await sweepStaleViewsIfDue(base, now + SWEEP_EVERY_MS + 1000)).toEqual([second]);
  });
});
