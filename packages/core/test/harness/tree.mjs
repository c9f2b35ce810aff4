// Byte-level snapshots of a folder, shared by the safety suites (vitest) and the bench scripts.
import { createHash } from 'node:crypto';
import { lstat, readdir, readFile, readlink } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Every entry under `root` as `path -> description`: a file is its permission bits and the
 * sha256 of its bytes, a folder its bits, a symbolic link its target. `skip(rel)` leaves an
 * entry (and what is below it) out.
 * @param {string} root
 * @param {(rel: string) => boolean} [skip]
 * @returns {Promise<Map<string, string>>}
 */
export async function snapshot(root, skip = () => false) {
  const out = new Map();
  const walk = async (dir) => {
    let entries;
    try {
      entries = await readdir(join(root, dir), { withFileTypes: true });
    } catch (error) {
      if (error.code === 'ENOENT') return;
      throw error;
    }
    for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const rel = dir ? `${dir}/${e.name}` : e.name;
      if (skip(rel)) continue;
      const abs = join(root, rel);
      const st = await lstat(abs);
      const mode = (st.mode & 0o7777).toString(8);
      if (st.isSymbolicLink()) out.set(rel, `link -> ${await readlink(abs)}`);
      else if (st.isDirectory()) {
        out.set(rel, `dir ${mode}`);
        await walk(rel);
      } else
        out.set(
          rel,
          `file ${mode} ${createHash('sha256')
            .update(await readFile(abs))
            .digest('hex')}`,
        );
    }
  };
  await walk('');
  return out;
}

/** Skips the engine's own state folder (journal, lock, run folders). */
export const skipSuture = (rel) => rel === '.suture' || rel.startsWith('.suture/');

/**
 * What changed between two snapshots, one line per path ("modified x", "created y", ...).
 * @param {Map<string, string>} before
 * @param {Map<string, string>} after
 * @returns {string[]}
 */
export function diffSnapshots(before, after) {
  const lines = [];
  for (const [path, what] of after) {
    const was = before.get(path);
    if (was === undefined) lines.push(`created ${path} (${what})`);
    else if (was !== what) lines.push(`modified ${path} (${was} => ${what})`);
  }
  for (const path of before.keys()) if (!after.has(path)) lines.push(`deleted ${path}`);
  return lines;
}

export const sameSnapshot = (a, b) => diffSnapshots(a, b).length === 0;

/**
 * A small seeded PRNG (mulberry32): every random choice of a trial or a fuzz case comes from it,
 * so a failure is reproduced by its seed.
 * @param {number} seed
 */
export function prng(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (n) => Math.floor(next() * n),
    pick: (list) => list[Math.floor(next() * list.length)],
    chance: (p) => next() < p,
  };
}
