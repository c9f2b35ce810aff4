import { lstat, mkdir, readdir, readFile, readlink, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { atomicWrite } from '../atomic.js';
import { SUTURE_DIR } from '../suture-dir.js';
import { ownedDirs } from './owned-dirs.js';

/** Folders a copy never holds: version control, suture's own, caches the tests rebuild. */
const SKIPPED = new Set(['.git', '.hg', '.svn', SUTURE_DIR, '__pycache__', '.pytest_cache']);

/** Stats of each source file at its last copy: an unchanged file is not copied again. */
type Manifest = Record<string, { size: number; mtimeMs: number }>;
const MANIFEST = 'copy-manifest.json';

async function exists(path: string): Promise<boolean> {
  return lstat(path).then(
    () => true,
    () => false,
  );
}

/** Dependency folders (node_modules, a virtualenv) are linked, not copied; build trees are left out. */
async function kindOf(dir: string, name: string): Promise<'link' | 'skip' | 'copy'> {
  if (name === 'node_modules' || (await exists(join(dir, 'pyvenv.cfg')))) return 'link';
  if (await exists(join(dir, 'CMakeCache.txt'))) return 'skip';
  return 'copy';
}

async function readManifest(stateDir: string): Promise<Manifest> {
  try {
    return JSON.parse(await readFile(join(stateDir, MANIFEST), 'utf8')) as Manifest;
  } catch {
    return {};
  }
}

/** Forgets files a view wrote, so the next sync copies the user's bytes over them again. */
export async function forgetCopied(stateDir: string, files: readonly string[]): Promise<void> {
  const manifest = await readManifest(stateDir);
  for (const f of files) delete manifest[f];
  await atomicWrite(join(stateDir, MANIFEST), JSON.stringify(manifest));
}

/**
 * Brings the copy `dest` in line with `root`: new and changed files copied (a fresh mtime, so
 * incremental builds in the copy rebuild them), links re-made, files gone from the source
 * removed. suture's own build folders in the copy (and in the source) are left alone.
 */
export async function syncCopy(root: string, dest: string, stateDir: string): Promise<void> {
  const manifest = await readManifest(stateDir);
  const next: Manifest = {};
  const present = new Set<string>();
  const topOwned = new Set(await ownedDirs(root));
  const walk = async (rel: string): Promise<void> => {
    await mkdir(join(dest, rel), { recursive: true });
    for (const e of await readdir(join(root, rel), { withFileTypes: true })) {
      const path = rel ? `${rel}/${e.name}` : e.name;
      if (SKIPPED.has(e.name) || (!rel && topOwned.has(e.name))) continue;
      const from = join(root, path);
      const to = join(dest, path);
      if (e.isDirectory()) {
        const kind = await kindOf(from, e.name);
        if (kind === 'skip') continue;
        present.add(path);
        if (kind === 'copy') await walk(path);
        else if ((await readlink(to).catch(() => undefined)) !== from) {
          await rm(to, { recursive: true, force: true });
          await symlink(from, to, 'dir');
        }
      } else if (e.isSymbolicLink()) {
        present.add(path);
        const target = await readlink(from);
        if ((await readlink(to).catch(() => undefined)) !== target) {
          await rm(to, { recursive: true, force: true });
          await symlink(target, to);
        }
      } else if (e.isFile()) {
        present.add(path);
        const st = await lstat(from);
        const known = manifest[path];
        next[path] = { size: st.size, mtimeMs: st.mtimeMs };
        if (known && known.size === st.size && known.mtimeMs === st.mtimeMs && (await exists(to))) continue;
        await rm(to, { recursive: true, force: true });
        await writeFile(to, await readFile(from), { mode: st.mode & 0o7777 });
      }
    }
  };
  await walk('');
  await prune(dest, '', present, new Set(await ownedDirs(dest)));
  await atomicWrite(join(stateDir, MANIFEST), JSON.stringify(next));
}

/** Removes what the copy holds that the source no longer does (not the copy's own build folders). */
async function prune(
  dest: string,
  rel: string,
  present: ReadonlySet<string>,
  owned: ReadonlySet<string>,
): Promise<void> {
  for (const e of await readdir(join(dest, rel), { withFileTypes: true })) {
    const path = rel ? `${rel}/${e.name}` : e.name;
    if (SKIPPED.has(e.name) || (!rel && owned.has(e.name))) continue;
    if (!present.has(path)) await rm(join(dest, path), { recursive: true, force: true });
    else if (e.isDirectory()) await prune(dest, path, present, owned);
  }
}
