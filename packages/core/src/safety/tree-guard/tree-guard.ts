import { rm } from 'node:fs/promises';
import { join, posix } from 'node:path';
import type { TreeChange } from '../../api/contracts/tree-change.js';
import { SUTURE_DIR } from '../suture-dir.js';
import { keepCopy, keptState, putState, sameState, stateOf, type FileState } from './file-state.js';
import {
  committedFiles,
  gitBlob,
  gitListing,
  movedFrom,
  workTreePlace,
  type IndexEntry,
} from './git-listing.js';
import { walkFiles } from './walk.js';

export type { TreeChange };

/** What a guard watches. */
export interface GuardTarget {
  /** The folder watched (absolute). */
  root: string;
  /** Its repository-relative path, which the changes are named under (`''` for the top). */
  label: string;
  /**
   * tree: every file git tracks or shows (untracked, and the ignored entries it lists without
   * walking into them), or every file outside git; tracked: the files git tracks, none outside
   * git; files: every file below, read whole (a small folder, such as `.git/hooks`).
   */
  watch: 'tree' | 'tracked' | 'files';
  /** For `files`: the top-level names looked at. */
  only?: readonly string[];
  /** Root-relative folders never looked at (suture's own build folders), asked at each snapshot. */
  skipPaths?: () => Promise<readonly string[]>;
}

/** The bytes a snapshot keeps of files it may have to put back (those git cannot give again). */
const BUDGET = 64 * 1024 * 1024;

/**
 * Folders a walk outside git does not enter: version control, suture's own, dependencies and
 * caches, which a test suite writes legitimately and hold no source.
 */
const WALK_SKIP = new Set([
  '.git',
  SUTURE_DIR,
  'node_modules',
  '__pycache__',
  '.pytest_cache',
  '.venv',
  'venv',
]);

/** The tree as it was before a run: what `undo` compares and restores from. */
export interface TreeSnapshot {
  target: GuardTarget;
  takenAt: number;
  /** Set when the target is a folder of a git work tree, with its prefix there. */
  prefix?: string;
  /** The commit checked out then: every file git did not list was as it holds it. */
  head?: string;
  /** git: the files git showed as changed or new; walk: every file. */
  entries: Map<string, FileState>;
  /** Of the paths that changed, those `head` holds (filled in by `undoChanges`). */
  tracked: Map<string, IndexEntry>;
  ignored: Set<string>;
  skipped: readonly string[];
}

const underAny = (path: string, dirs: readonly string[]): boolean =>
  dirs.some((d) => path === d || path.startsWith(`${d}/`));

/** Snapshots a target: its listing and the bytes of what git could not give back. */
export async function takeSnapshot(target: GuardTarget): Promise<TreeSnapshot> {
  // a second of slack: a change time may be rounded below the clock read here
  const takenAt = Date.now() - 1000;
  const skipped = [SUTURE_DIR, ...((await target.skipPaths?.()) ?? [])];
  const budget = { left: BUDGET };
  const entries = new Map<string, FileState>();
  const snapshot: TreeSnapshot = {
    target,
    takenAt,
    entries,
    tracked: new Map(),
    ignored: new Set(),
    skipped,
  };
  const place = target.watch === 'files' ? undefined : await workTreePlace(target.root);
  let paths: string[];
  if (place) {
    snapshot.prefix = place.prefix;
    if (place.head) snapshot.head = place.head;
    const listing = await gitListing(target.root, place.prefix, { untracked: target.watch === 'tree' });
    snapshot.ignored = listing.ignored;
    paths = listing.dirty;
  } else if (target.watch === 'tracked') paths = [];
  else
    paths = await walkFiles(target.root, {
      skip: target.watch === 'tree' ? WALK_SKIP : new Set(),
      skipPath: new Set(skipped),
      ...(target.only ? { only: target.only } : {}),
    });
  for (const path of paths)
    if (!underAny(path, skipped)) entries.set(path, await keptState(join(target.root, path), budget));
  return snapshot;
}

type Goal =
  { kind: 'file'; bytes: Buffer; mode: number } | { kind: 'link'; target: string } | { kind: 'absent' };

/** What a path must be put back to, or why it cannot be. */
async function goalOf(snapshot: TreeSnapshot, path: string): Promise<Goal | string> {
  const before = snapshot.entries.get(path);
  if (before) {
    if (before.kind === 'file')
      return before.bytes
        ? { kind: 'file', bytes: before.bytes, mode: before.mode }
        : `it was larger than the ${BUDGET / 1024 / 1024} MiB suture keeps a copy of`;
    if (before.kind === 'link') return { kind: 'link', target: before.target };
    return { kind: 'absent' };
  }
  const index = snapshot.tracked.get(path);
  if (!index) return { kind: 'absent' };
  const bytes = await gitBlob(snapshot.target.root, index.blob);
  if (index.mode === '120000') return { kind: 'link', target: bytes.toString('utf8') };
  return { kind: 'file', bytes, mode: index.mode === '100755' ? 0o755 : 0o644 };
}

export interface UndoOptions {
  /** Put the changes back (check mode, patched code); false only names them. */
  restore: boolean;
  /** Where the bytes a run left are kept. */
  keepDir?: string;
  /** A change suture made itself (a journal write): left as it is and not reported. */
  expected?: (file: string) => Promise<boolean>;
}

/** The paths that may have changed since the snapshot, and those that are new ignored entries. */
async function changedPaths(snapshot: TreeSnapshot): Promise<{ paths: string[]; newIgnored: string[] }> {
  const { target } = snapshot;
  if (snapshot.prefix !== undefined) {
    const [now, moved] = await Promise.all([
      gitListing(target.root, snapshot.prefix, { untracked: target.watch === 'tree' }),
      snapshot.head ? movedFrom(target.root, snapshot.head) : [],
    ]);
    const newIgnored = [...now.ignored].filter((p) => !snapshot.ignored.has(p));
    const paths = [...new Set([...snapshot.entries.keys(), ...now.dirty, ...moved])];
    // a path git did not list before was as HEAD holds it, if HEAD holds it at all
    const unlisted = paths.filter((p) => !snapshot.entries.has(p));
    if (snapshot.head && unlisted.length > 0)
      snapshot.tracked = await committedFiles(target.root, snapshot.head, unlisted);
    return { paths, newIgnored };
  }
  if (target.watch === 'tracked') return { paths: [], newIgnored: [] };
  const now = await walkFiles(target.root, {
    skip: target.watch === 'tree' ? WALK_SKIP : new Set(),
    skipPath: new Set(snapshot.skipped),
    ...(target.only ? { only: target.only } : {}),
  });
  return { paths: [...new Set([...snapshot.entries.keys(), ...now])], newIgnored: [] };
}

/**
 * Compares the target with its snapshot and puts back (when asked) what changed since, except
 * what suture wrote itself: files restored from the snapshot's bytes or git's index, files and
 * folders that appeared removed. What the run left is kept under `keepDir` first.
 */
export async function undoChanges(snapshot: TreeSnapshot, options: UndoOptions): Promise<TreeChange[]> {
  const { target } = snapshot;
  const { paths, newIgnored } = await changedPaths(snapshot);
  const changes: TreeChange[] = [];
  const name = (path: string): string => (target.label ? posix.join(target.label, path) : path);
  for (const path of paths.sort()) {
    if (underAny(path, snapshot.skipped)) continue;
    const abs = join(target.root, path);
    const before = snapshot.entries.get(path);
    const now = await stateOf(abs);
    if (before ? sameState(before, now) : now.kind === 'absent' && !snapshot.tracked.has(path)) continue;
    // Not listed before and not tracked: a file that was hidden from the listing then and has not
    // changed since (an ignore rule the run edited) is the user's, not the run's.
    if (!before && !snapshot.tracked.has(path) && now.kind !== 'absent' && now.ctimeMs < snapshot.takenAt)
      continue;
    if (await options.expected?.(name(path))) continue;
    const existed = before ? before.kind !== 'absent' : snapshot.tracked.has(path);
    const change: TreeChange['change'] = !existed
      ? 'created'
      : now.kind === 'absent'
        ? 'deleted'
        : 'modified';
    changes.push(await putBack(snapshot, path, name(path), change, options));
  }
  for (const entry of newIgnored.sort()) {
    const path = entry.replace(/\/$/, '');
    if (underAny(path, snapshot.skipped) || path === SUTURE_DIR) continue;
    const now = await stateOf(join(target.root, path));
    if (now.kind === 'absent' || now.ctimeMs < snapshot.takenAt) continue;
    if (!options.restore) {
      changes.push({
        file: name(entry),
        change: 'created',
        restored: false,
        reason: 'left as the run made it',
      });
      continue;
    }
    await rm(join(target.root, path), { recursive: true, force: true });
    changes.push({ file: name(entry), change: 'created', restored: true });
  }
  return changes;
}

async function putBack(
  snapshot: TreeSnapshot,
  path: string,
  file: string,
  change: TreeChange['change'],
  options: UndoOptions,
): Promise<TreeChange> {
  if (!options.restore) return { file, change, restored: false, reason: 'left as the run made it' };
  const abs = join(snapshot.target.root, path);
  const kept =
    options.keepDir && change !== 'deleted' ? await keepCopy(abs, options.keepDir, file) : undefined;
  const goal = await goalOf(snapshot, path).catch((e: unknown) => `git could not give it back: ${String(e)}`);
  if (typeof goal === 'string')
    return { file, change, restored: false, reason: goal, ...(kept ? { kept } : {}) };
  await putState(abs, goal);
  return { file, change, restored: true, ...(kept ? { kept } : {}) };
}
