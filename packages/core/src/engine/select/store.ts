import { mkdir, readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { SelectionRecordSchema, type SelectionRecord } from '../../api/contracts/selection.js';
import { atomicWrite, sha256 } from '../../safety/atomic.js';
import { SUTURE_DIR } from '../../safety/suture-dir.js';

/**
 * Where a project's selection records live: `.suture/selection/<project>/records/*.json`, one file
 * per green run that recorded, and `blobs/<sha256>`, the recorded version of every file they name.
 * Records of CI shards merge by copying their folders into one: reading takes the union.
 */
export function selectionDir(repoRoot: string, project: string): string {
  return join(repoRoot, SUTURE_DIR, 'selection', project);
}

const newest = (r: SelectionRecord): string =>
  Object.values(r.tests).reduce((m, t) => (t.recordedAt > m ? t.recordedAt : m), '');

/**
 * The union of two records of a project. A test in both keeps its newer entry; every file version
 * either names is kept. Records made under different toolchains do not mix: the newer one wins.
 */
export function mergeSelectionRecords(a: SelectionRecord, b: SelectionRecord): SelectionRecord {
  if (a.toolchain !== b.toolchain) return newest(a) >= newest(b) ? a : b;
  const tests = { ...a.tests };
  for (const [id, t] of Object.entries(b.tests)) {
    const had = tests[id];
    if (!had || t.recordedAt >= had.recordedAt) tests[id] = t;
  }
  const files: SelectionRecord['files'] = {};
  for (const side of [a.files, b.files])
    for (const [path, versions] of Object.entries(side)) files[path] = { ...files[path], ...versions };
  const trees = [...a.trees];
  for (const t of b.trees)
    if (!trees.some((x) => x.commit === t.commit && JSON.stringify(x.dirty) === JSON.stringify(t.dirty)))
      trees.push(t);
  return { ...a, tests, files, trees };
}

async function recordFiles(dir: string): Promise<string[]> {
  const names = await readdir(join(dir, 'records')).catch(() => [] as string[]);
  return names.filter((n) => n.endsWith('.json')).sort();
}

export interface StoredRecords {
  record?: SelectionRecord;
  /** Record files that could not be read, with why (they are left out). */
  unreadable: string[];
}

/** Every record of the project, merged; one that fails to parse is left out and named. */
export async function readRecords(repoRoot: string, project: string): Promise<StoredRecords> {
  const dir = selectionDir(repoRoot, project);
  let merged: SelectionRecord | undefined;
  const unreadable: string[] = [];
  for (const name of await recordFiles(dir)) {
    try {
      const parsed = SelectionRecordSchema.safeParse(
        JSON.parse(await readFile(join(dir, 'records', name), 'utf8')),
      );
      if (!parsed.success || parsed.data.project !== project) {
        unreadable.push(`${name}: not a selection record of ${project}`);
        continue;
      }
      merged = merged ? mergeSelectionRecords(merged, parsed.data) : parsed.data;
    } catch (error) {
      unreadable.push(`${name}: ${(error as Error).message}`);
    }
  }
  return { ...(merged ? { record: merged } : {}), unreadable };
}

/** The recorded version of a file, from the blob store. */
export async function readBlob(repoRoot: string, project: string, hash: string): Promise<string | undefined> {
  const bytes = await readFile(join(selectionDir(repoRoot, project), 'blobs', hash)).catch(() => undefined);
  // a blob that does not hash to its name is not the version the record names
  return bytes && sha256(bytes) === hash ? bytes.toString('utf8') : undefined;
}

/**
 * Stores a record and the versions of the files it names, then removes the older records whose
 * every test a newer one recorded again (a shard's record, with tests of its own, stays).
 */
export async function writeRecord(
  repoRoot: string,
  record: SelectionRecord,
  blobs: ReadonlyMap<string, Buffer>,
  id: string,
): Promise<void> {
  const dir = selectionDir(repoRoot, record.project);
  await mkdir(join(dir, 'blobs'), { recursive: true });
  await mkdir(join(dir, 'records'), { recursive: true });
  for (const [hash, bytes] of blobs) {
    const file = join(dir, 'blobs', hash);
    const present = await readFile(file).catch(() => undefined);
    if (!present || sha256(present) !== hash) await atomicWrite(file, bytes);
  }
  const name = `${id}.json`;
  await atomicWrite(join(dir, 'records', name), JSON.stringify(record));
  const mine = new Set(Object.keys(record.tests));
  for (const other of await recordFiles(dir)) {
    if (other === name) continue;
    try {
      const old = SelectionRecordSchema.parse(
        JSON.parse(await readFile(join(dir, 'records', other), 'utf8')),
      );
      if (Object.keys(old.tests).every((t) => mine.has(t)) || old.toolchain !== record.toolchain)
        await rm(join(dir, 'records', other), { force: true });
    } catch {
      await rm(join(dir, 'records', other), { force: true });
    }
  }
  await pruneBlobs(dir);
}

/** Removes the blobs no record names any more. */
async function pruneBlobs(dir: string): Promise<void> {
  const named = new Set<string>();
  for (const name of await recordFiles(dir)) {
    const parsed = SelectionRecordSchema.safeParse(
      JSON.parse(await readFile(join(dir, 'records', name), 'utf8').catch(() => '{}')),
    );
    if (!parsed.success) continue;
    for (const versions of Object.values(parsed.data.files))
      for (const h of Object.keys(versions)) named.add(h);
  }
  for (const blob of await readdir(join(dir, 'blobs')).catch(() => [] as string[]))
    if (!named.has(blob)) await rm(join(dir, 'blobs', blob), { force: true });
}
