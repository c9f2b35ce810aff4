import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SummaryCache } from './summary-cache.js';

let repo: string;
beforeEach(async () => {
  repo = await mkdtemp(join(tmpdir(), 'suture-summaries-'));
});
afterEach(async () => {
  await rm(repo, { recursive: true, force: true });
});

/** A cache whose summaries count the calls that made them. */
function counting(maxBytes?: number) {
  const calls: string[] = [];
  const cache = new SummaryCache<{ lines: number }>({
    name: 'test',
    version: 1,
    summarize: (source, file) => {
      calls.push(file);
      return { lines: source.split('\n').length };
    },
    ...(maxBytes ? { maxBytes } : {}),
  });
  return { cache, calls };
}

describe('SummaryCache', () => {
  it('summarises a file once per content, persists under the .suture folder above the project, and reads it back in a new cache', async () => {
    await mkdir(join(repo, '.git'));
    await mkdir(join(repo, '.suture'));
    await mkdir(join(repo, 'app'));
    await writeFile(join(repo, 'app', 'a.py'), 'x = 1\ny = 2\n');
    const first = counting();
    expect(await first.cache.read(join(repo, 'app'), 'a.py')).toMatchObject({
      file: 'a.py',
      summary: { lines: 3 },
    });
    await first.cache.read(join(repo, 'app'), 'a.py');
    expect(first.calls).toEqual(['a.py']);
    await first.cache.flush();
    expect(await readdir(join(repo, '.suture', 'cache'))).toContain('test-v1.json');

    const second = counting();
    expect(await second.cache.read(join(repo, 'app'), 'a.py')).toMatchObject({ summary: { lines: 3 } });
    expect(second.calls).toEqual([]);
    // an edit is a new content: summarised again
    await writeFile(join(repo, 'app', 'a.py'), 'x = 1\n');
    expect(await second.cache.read(join(repo, 'app'), 'a.py')).toMatchObject({ summary: { lines: 2 } });
    expect(second.calls).toEqual(['a.py']);
  });

  it('keeps summaries in memory only when no .suture folder is above the project, up to the repository root', async () => {
    await mkdir(join(repo, '.git'));
    await writeFile(join(repo, 'a.py'), 'x = 1\n');
    const { cache } = counting();
    await cache.read(repo, 'a.py');
    await cache.flush();
    expect(await readdir(repo)).toEqual(['.git', 'a.py']);
  });

  it('skips a file over the size limit with a reason, and answers undefined for a missing one', async () => {
    await writeFile(join(repo, 'big.py'), 'x'.repeat(3 * 1024 * 1024));
    const { cache, calls } = counting();
    expect(await cache.read(repo, 'big.py')).toEqual({
      file: 'big.py',
      skipped: 'big.py is 3.0 MB, over the 2 MB an analyzer reads; not analysed',
    });
    expect(calls).toEqual([]);
    expect(await cache.read(repo, 'missing.py')).toBeUndefined();
  });
});
