import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { atomicWrite } from '../atomic.js';

/**
 * Files a workspace's view held other bytes of than the user's tree: their build outputs in
 * suture's kept build folders may have been compiled from the patch. A build tool goes by mtimes,
 * and the user's file is older than those outputs, so the next views rewrite it with a fresh
 * mtime until the user's own file is newer than the entry (then the tool rebuilds it anyway).
 */
export interface TouchedEntry {
  /** Project-relative path. */
  file: string;
  /** When the last view that held other bytes ended (ms since the epoch). */
  at: number;
}

const NAME = 'touched.json';

export async function readTouched(stateDir: string): Promise<TouchedEntry[]> {
  try {
    const parsed = JSON.parse(await readFile(join(stateDir, NAME), 'utf8')) as TouchedEntry[];
    return Array.isArray(parsed)
      ? parsed.filter((e) => typeof e.file === 'string' && typeof e.at === 'number')
      : [];
  } catch {
    return [];
  }
}

/** The entries still needed: the user's file exists and is not newer than the entry. */
export async function stillTouched(root: string, entries: readonly TouchedEntry[]): Promise<TouchedEntry[]> {
  const kept: TouchedEntry[] = [];
  for (const e of entries) {
    const st = await stat(join(root, e.file)).catch(() => undefined);
    if (st && st.mtimeMs <= e.at) kept.push(e);
  }
  return kept;
}

export async function writeTouched(stateDir: string, entries: readonly TouchedEntry[]): Promise<void> {
  const byFile = new Map<string, TouchedEntry>();
  for (const e of entries)
    byFile.set(e.file, { file: e.file, at: Math.max(e.at, byFile.get(e.file)?.at ?? 0) });
  await atomicWrite(join(stateDir, NAME), `${JSON.stringify([...byFile.values()])}\n`);
}
