import { isAbsolute, join, relative, resolve } from 'node:path';
import { makeIgnoredDir } from '@suture/core';
import type { CargoMetadata } from './metadata.js';
import type { ResolvedCargoOptions } from './options.js';

/** The build folder suture makes for a project whose own lies outside it. */
export const OWN_TARGET_DIR = 'target-suture';

const inside = (dir: string, path: string): boolean => {
  const rel = relative(dir, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
};

/**
 * The build folder of suture's runs. Shared with the user's own builds when cargo's target folder
 * is inside the project: a validation in the copy-on-write view reads the warm build and writes
 * only what the patch changes, into the view. Else (a workspace member, whose `target/` is at the
 * workspace root, outside the project and read-only to sandboxed runs) `target-suture`, made with
 * suture's own `.gitignore` so that the workspace keeps it real, writable and warm across runs.
 */
export async function targetDir(
  root: string,
  meta: CargoMetadata,
  options: ResolvedCargoOptions,
): Promise<string | undefined> {
  if (options.targetDir === 'auto') {
    if (inside(root, meta.targetDirectory)) return undefined;
    const own = join(root, OWN_TARGET_DIR);
    await makeIgnoredDir(own, { owned: true });
    return own;
  }
  const dir = resolve(root, options.targetDir);
  if (inside(root, dir)) await makeIgnoredDir(dir, { owned: dir === join(root, OWN_TARGET_DIR) });
  return dir;
}

/** cargo's environment: the user's, the runner option `env`, and the build folder when suture picks it. */
export async function buildEnv(
  root: string,
  meta: CargoMetadata,
  options: ResolvedCargoOptions,
  env: Record<string, string>,
): Promise<Record<string, string>> {
  const dir = await targetDir(root, meta, options);
  return dir ? { ...env, CARGO_TARGET_DIR: dir } : env;
}
