import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Journal, recover } from './journal.js';

const dirs: string[] = [];
afterEach(async () => {
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

describe('a batch of writes through the journal', () => {
  it('records the whole batch in one manifest write, then writes the files without another', async () => {
    const root = await mkdtemp(join(tmpdir(), 'suture-journal-batch-'));
    dirs.push(root);
    await mkdir(join(root, 'src'));
    const files = Array.from({ length: 300 }, (_, i) => `src/m${i}.py`);
    for (const f of files.slice(0, 150)) await writeFile(join(root, f), `v = 0  # ${f}\n`);
    const journal = await Journal.create(root, 'batch');
    const writes = files.map((file) => ({ file, content: `v = 1  # ${file}\n` }));
    await journal.prepare(writes);
    const manifest = join(root, '.suture/journal/manifest.json');
    // The manifest is replaced (a new inode) each time it is written.
    const prepared = (await stat(manifest)).ino;
    const recorded = JSON.parse(await readFile(manifest, 'utf8')) as { entries: unknown[] };
    expect(recorded.entries).toHaveLength(300);
    for (const w of writes) await journal.write(w.file, w.content);
    expect((await stat(manifest)).ino).toBe(prepared);
    expect(await readFile(join(root, 'src/m7.py'), 'utf8')).toBe('v = 1  # src/m7.py\n');

    // As durable as writing one by one: a recover puts back the originals and removes the new files.
    const outcome = await recover(root);
    expect(outcome.restored).toHaveLength(150);
    expect(outcome.deleted).toHaveLength(150);
    expect(await readFile(join(root, 'src/m7.py'), 'utf8')).toBe('v = 0  # src/m7.py\n');
    await expect(stat(join(root, 'src/m200.py'))).rejects.toThrow(/ENOENT/);
  });

  it('restores only what its run wrote: a batch stopped early leaves the rest, a user edit included, alone', async () => {
    const root = await mkdtemp(join(tmpdir(), 'suture-journal-batch-'));
    dirs.push(root);
    await mkdir(join(root, 'src'));
    const old = Array.from({ length: 100 }, (_, i) => `src/m${i}.py`);
    for (const f of old) await writeFile(join(root, f), `v = 0  # ${f}\n`);
    const made = Array.from({ length: 100 }, (_, i) => `gen/n${i}.py`);
    const journal = await Journal.create(root, 'stopped');
    const writes = [...old, ...made].map((file) => ({ file, content: `v = 1  # ${file}\n` }));
    await journal.prepare(writes);
    // Stopped after two writes (Ctrl-C during a landing); meanwhile the user edits a file the
    // batch never reached.
    await journal.write('src/m0.py', writes[0]!.content);
    await journal.write('gen/n0.py', writes[100]!.content);
    await writeFile(join(root, 'src/m50.py'), 'v = 2  # the user\n');
    const outcome = await journal.restore();
    expect(outcome).toEqual({ restored: ['src/m0.py'], deleted: ['gen/n0.py'], conflicts: [] });
    expect(await readFile(join(root, 'src/m0.py'), 'utf8')).toBe('v = 0  # src/m0.py\n');
    expect(await readFile(join(root, 'src/m50.py'), 'utf8')).toBe('v = 2  # the user\n');
    await expect(stat(join(root, 'gen'))).rejects.toThrow(/ENOENT/);
    await journal.close();
  });
});
