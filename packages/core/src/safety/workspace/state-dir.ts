import { createHash, randomBytes } from 'node:crypto';
import { chmod, lstat, mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';

/**
 * Where workspaces keep their state: overlay layers, synced copies, the sandbox's private temp
 * folder. Outside every repository (an overlay's layers may not sit inside the tree they cover,
 * and a copy inside the project would be found by its test discovery), private to the user.
 * `SUTURE_STATE_DIR` moves it.
 */
export function stateBase(env: NodeJS.ProcessEnv = process.env): string {
  return env.SUTURE_STATE_DIR ?? join(tmpdir(), `suture-${userInfo().uid}`);
}

/**
 * Creates `dir` (mode 0700) and checks it is a real folder owned by this user: in a shared /tmp,
 * another user could have planted a link or a folder of theirs at the name.
 */
export async function privateDir(dir: string): Promise<string> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const st = await lstat(dir);
  const uid = process.getuid?.();
  if (!st.isDirectory() || (uid !== undefined && st.uid !== uid))
    throw new Error(
      `${dir} is not a folder of this user's; remove it or set SUTURE_STATE_DIR to a folder of your own`,
    );
  await chmod(dir, 0o700);
  return dir;
}

/** The file in a project's state folder that names the project, so a folder whose project is gone can go too. */
export const ROOT_FILE = 'root';

/** The persistent state folder of one project (by its absolute root). */
export async function projectStateDir(
  projectRoot: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<string> {
  const base = await privateDir(stateBase(env));
  const id = createHash('sha256').update(projectRoot).digest('hex').slice(0, 16);
  const dir = await privateDir(join(base, `ws-${id}`));
  // Written whole or not at all (a sweep in another run reads it meanwhile), and only when it changes.
  const file = join(dir, ROOT_FILE);
  if ((await readFile(file, 'utf8').catch(() => undefined)) !== projectRoot) {
    const tmp = `${file}.${process.pid}-${randomBytes(4).toString('hex')}`;
    await writeFile(tmp, projectRoot);
    await rename(tmp, file);
  }
  return dir;
}

/** A fresh folder for one workspace's throwaway layers, inside the project's state folder. */
export async function freshDir(parent: string, prefix: string): Promise<string> {
  const dir = join(parent, `${prefix}-${process.pid}-${randomBytes(4).toString('hex')}`);
  await mkdir(dir, { mode: 0o700 });
  return dir;
}

/** Makes every folder under `dir` writable to its owner: an overlay's work folder is left mode 000. */
async function unlock(dir: string): Promise<void> {
  await chmod(dir, 0o700).catch(() => undefined);
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  for (const e of entries) if (e.isDirectory()) await unlock(join(dir, e.name));
}

/** Removes a folder tree, also one holding folders without permissions (an overlay's leftovers). */
export async function removeTree(dir: string): Promise<void> {
  try {
    await rm(dir, { recursive: true, force: true });
  } catch {
    await unlock(dir);
    await rm(dir, { recursive: true, force: true });
  }
}
