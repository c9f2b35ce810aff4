import { mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runProcess, type RunContext } from '@suture/core';
import { buildEnv } from './build.js';
import { parseGtestListing } from './ctest-output.js';

export interface Located {
  file: string;
  line: number;
}

/** Where each case of a GoogleTest program is defined, by gtest name. */
export type Listing = Map<string, Located>;

interface Cached {
  mtimeMs: number;
  size: number;
  tests: Array<[name: string, file: string, line: number]>;
}

const CACHE_FILE = '.suture-gtest-lists.json';

/**
 * `--gtest_list_tests` listings kept in the build folder by the binary's mtime and size: a warm
 * gate, whose build relinked nothing, lists no binary again. A command is listed as the entry runs
 * it (its own `--gtest_filter` included), so the listing holds exactly the entry's cases.
 */
export class ListingCache {
  private entries: Record<string, Cached> = {};
  private changed = false;
  private readonly loading: Promise<void>;
  private readonly inFlight = new Map<string, Promise<Listing>>();

  constructor(
    private readonly buildDir: string,
    private readonly ctx: RunContext,
  ) {
    this.loading = readFile(join(buildDir, CACHE_FILE), 'utf8').then(
      (text) => void (this.entries = JSON.parse(text) as Record<string, Cached>),
      () => undefined,
    );
  }

  /** Commands listed by an earlier run: they are GoogleTest programs. */
  async known(): Promise<Set<string>> {
    await this.loading;
    return new Set(Object.keys(this.entries));
  }

  /** The listing of a GoogleTest command, from the cache while its binary is unchanged. */
  list(command: readonly string[]): Promise<Listing> {
    const key = command.join('\0');
    let p = this.inFlight.get(key);
    if (!p) {
      p = this.fresh(key, command);
      this.inFlight.set(key, p);
    }
    return p;
  }

  async save(): Promise<void> {
    if (!this.changed) return;
    const file = join(this.buildDir, CACHE_FILE);
    await writeFile(`${file}.tmp`, JSON.stringify(this.entries));
    await rename(`${file}.tmp`, file);
  }

  private async fresh(key: string, command: readonly string[]): Promise<Listing> {
    await this.loading;
    const s = await stat(command[0]!).catch(() => undefined);
    const hit = this.entries[key];
    if (s && hit && hit.mtimeMs === s.mtimeMs && hit.size === s.size)
      return new Map(hit.tests.map(([name, file, line]) => [name, { file, line }]));
    const dir = join(this.ctx.workDir, 'gtest-list');
    await mkdir(dir, { recursive: true });
    const out = join(dir, `list-${this.inFlight.size}-${Date.now()}.json`);
    await runProcess(command[0]!, [...command.slice(1), '--gtest_list_tests', `--gtest_output=json:${out}`], {
      cwd: this.ctx.root,
      env: buildEnv(),
      timeoutMs: 60_000,
      signal: this.ctx.signal,
    });
    let listing: Listing;
    try {
      listing = parseGtestListing(await readFile(out, 'utf8'));
    } catch {
      // GoogleTest older than 1.10 writes no listing: its tests go without a definition line
      return new Map();
    }
    if (s) {
      this.entries[key] = {
        mtimeMs: s.mtimeMs,
        size: s.size,
        tests: [...listing].map(([name, at]) => [name, at.file, at.line]),
      };
      this.changed = true;
    }
    return listing;
  }
}
