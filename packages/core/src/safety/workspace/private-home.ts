import { mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';
import type { SetupOp } from '../sandbox/holder.js';
import {
  homeCover,
  homePath,
  pathFoldersIn,
  realHomes,
  SHARED_HOME_PATHS,
  toolchainHomeEnv,
} from '../sandbox/home.js';

/** The HOME the sandboxed runs get, and what of the real home they still see. */
export interface SandboxHome {
  /** The private, empty folder HOME points at (writable, thrown away with the run's scratch). */
  dir: string;
  /** Toolchain variables pinned to the real home, where HOME alone would have found them. */
  env: Record<string, string>;
  /** Mounts that cover the rest of the real home (namespaces only). */
  cover: SetupOp[];
}

export interface SandboxHomeInput {
  /** The project root and suture's folders the runs use: never covered. */
  keep: readonly string[];
  /** The private HOME to make (emptied first); a folder under `fallback` when unset. */
  dir?: string;
  fallback: string;
  /** The config's `sandboxHome`: more of the real home shared read-only. */
  shared?: readonly string[];
  /** Whether the namespaces can cover the real home (else only HOME moves). */
  namespaces: boolean;
  /** Where the empty file that covers a file is kept (the project's state folder). */
  stateDir: string;
  env?: NodeJS.ProcessEnv;
}

/**
 * Makes the sandbox's private HOME and plans what covers the real one: every entry of the real
 * home but the toolchains' shared paths (read-only, as everything outside the workspace), PATH's
 * folders in it, and the project's and suture's own folders.
 */
export async function sandboxHome(input: SandboxHomeInput): Promise<SandboxHome> {
  const env = input.env ?? process.env;
  const dir = input.dir ?? join(input.fallback || join(tmpdir(), `suture-home-${process.pid}`), 'home');
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const homes = realHomes(env);
  const pins = homes[0] ? await toolchainHomeEnv(homes[0], env) : {};
  if (!input.namespaces || homes.length === 0) return { dir, env: pins, cover: [] };
  const empty = join(input.stateDir, 'empty-file');
  await writeFile(empty, '', { mode: 0o444 }).catch(() => undefined);
  const cover: SetupOp[] = [];
  for (const home of homes) {
    const shared = [...SHARED_HOME_PATHS, ...(input.shared ?? [])]
      .map((entry) => homePath(entry, home))
      .filter((p): p is string => p !== undefined);
    const keep = [
      ...shared,
      ...pathFoldersIn(home, env.PATH),
      // the environment the project's interpreter is in, wherever in the home it was made
      ...[env.VIRTUAL_ENV, env.CONDA_PREFIX].filter((p): p is string => !!p && isAbsolute(p)),
      // suture's own Node (the sandbox's agent, and runners that start process.execPath)
      dirname(dirname(process.execPath)),
      ...input.keep,
      dir,
      input.stateDir,
    ].filter(Boolean);
    const found = await homeCover(home, keep);
    for (const target of found.dirs) cover.push({ op: 'cover', target, kind: 'dir', empty });
    for (const target of found.files) cover.push({ op: 'cover', target, kind: 'file', empty });
  }
  return { dir, env: pins, cover };
}
