import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { atomicWrite } from '../safety/atomic.js';
import { makeIgnoredDir } from '../safety/ignored-dir.js';

/** A file's summary, or why the analyzer did not read it. */
export type FileSummary<T> =
  | { file: string; hash: string; summary: T; skipped?: undefined }
  | { file: string; skipped: string; summary?: undefined };

export interface SummaryCacheOptions<T> {
  /** Names the cache file: `.suture/cache/<name>-v<version>.json`. */
  name: string;
  /** Bump when `summarize` changes what it returns: older caches are then ignored. */
  version: number;
  /** What the analyzer keeps of a file (definitions, calls, imports): plain JSON data. */
  summarize: (source: string, file: string) => T;
  /**
   * Files larger than this are not parsed: a generated or vendored blob says nothing a fixer can
   * use and costs seconds. Default 2 MB.
   */
  maxBytes?: number;
  /** Summaries kept in memory and on disk. Default 20,000. */
  maxEntries?: number;
}

const DEFAULT_MAX_BYTES = 2 * 1024 * 1024;

/**
 * Per-file summaries keyed by content hash, in memory and persisted under the nearest `.suture/`
 * folder above the project (the one the gate keeps its lock and journal in), so a second gate on
 * the same tree parses only the files that changed. Without a `.suture/` folder it keeps them in
 * memory only. An edited file has a new hash and is summarised again.
 */
export class SummaryCache<T> {
  private readonly memory = new Map<string, T>();
  private readonly loaded = new Map<string, Promise<string | undefined>>();
  private dirty = new Set<string>();

  constructor(private readonly options: SummaryCacheOptions<T>) {}

  /** The summary of a project-relative file; undefined when it cannot be read. */
  async read(root: string, file: string): Promise<FileSummary<T> | undefined> {
    const abs = join(root, file);
    const size = await stat(abs).then(
      (s) => (s.isFile() ? s.size : undefined),
      () => undefined,
    );
    if (size === undefined) return undefined;
    const max = this.options.maxBytes ?? DEFAULT_MAX_BYTES;
    if (size > max)
      return {
        file,
        skipped: `${file} is ${(size / 1024 / 1024).toFixed(1)} MB, over the ${(max / 1024 / 1024).toFixed(0)} MB an analyzer reads; not analysed`,
      };
    const source = await readFile(abs, 'utf8').catch(() => undefined);
    if (source === undefined) return undefined;
    return this.summary(root, file, source);
  }

  /** The summary of a text as if it were `file` (an edit not yet written, a doctest). */
  async summary(root: string, file: string, source: string): Promise<FileSummary<T>> {
    const hash = createHash('sha1').update(source).digest('hex');
    const store = await this.store(root);
    let summary = this.memory.get(hash);
    if (summary === undefined) {
      summary = this.options.summarize(source, file);
      this.remember(hash, summary);
      if (store) this.dirty.add(store);
    }
    return { file, hash, summary };
  }

  /** Writes what was summarised since the last flush to the cache file. Never throws. */
  async flush(): Promise<void> {
    const stores = [...this.dirty];
    this.dirty = new Set();
    for (const store of stores) {
      const data = Object.fromEntries(this.memory);
      try {
        await makeIgnoredDir(dirname(store));
        await atomicWrite(store, JSON.stringify(data));
      } catch {
        // a cache that cannot be written only costs the next run a parse
      }
    }
  }

  private remember(hash: string, summary: T): void {
    const max = this.options.maxEntries ?? 20_000;
    if (this.memory.size >= max) this.memory.delete(this.memory.keys().next().value as string);
    this.memory.set(hash, summary);
  }

  /** The cache file for a project root (loading it once), or undefined when nothing may be persisted. */
  private store(root: string): Promise<string | undefined> {
    let found = this.loaded.get(root);
    if (!found) {
      found = this.load(root);
      this.loaded.set(root, found);
    }
    return found;
  }

  private async load(root: string): Promise<string | undefined> {
    const suture = await nearestSutureDir(root);
    if (!suture) return undefined;
    const store = join(suture, 'cache', `${this.options.name}-v${this.options.version}.json`);
    const text = await readFile(store, 'utf8').catch(() => undefined);
    if (text) {
      try {
        for (const [hash, summary] of Object.entries(JSON.parse(text) as Record<string, T>))
          if (!this.memory.has(hash)) this.remember(hash, summary);
      } catch {
        // a torn or foreign file is rebuilt
      }
    }
    return store;
  }
}

const isDir = (path: string): Promise<boolean> =>
  stat(path).then(
    (s) => s.isDirectory(),
    () => false,
  );

/** `.suture/` in the project root or a folder above it, up to the repository's root. */
async function nearestSutureDir(root: string): Promise<string | undefined> {
  for (let dir = root; ; dir = dirname(dir)) {
    if (await isDir(join(dir, '.suture'))) return join(dir, '.suture');
    if ((await stat(join(dir, '.git')).catch(() => undefined)) || dirname(dir) === dir) return undefined;
  }
}
