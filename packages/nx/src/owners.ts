import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path/posix';

/** A workspace-relative posix path without `./` or a trailing slash; the workspace root is `.`. */
export function normalize(path: string): string {
  const clean = path
    .replace(/\\/g, '/')
    .replace(/^\.\/+/, '')
    .replace(/\/+$/, '');
  return clean === '' ? '.' : clean;
}

/**
 * The root of the Nx project that holds a folder: the nearest folder at or above it (below the
 * workspace root) with a project.json or package.json, as Nx's own inference places projects.
 * Undefined when there is none, and the suture target then gets a project of its own.
 */
export function owningRoot(workspaceRoot: string, root: string): string | undefined {
  for (let dir = normalize(root); dir !== '.'; dir = dirname(dir)) {
    if (
      existsSync(join(workspaceRoot, dir, 'project.json')) ||
      existsSync(join(workspaceRoot, dir, 'package.json'))
    )
      return dir;
  }
  return undefined;
}

/** The Nx project whose root holds `path` most closely (longest root prefix). */
export function projectOf(path: string, roots: ReadonlyMap<string, string>): string | undefined {
  let best: { name: string; length: number } | undefined;
  for (const [name, root] of roots) {
    const inside = root === '.' || path === root || path.startsWith(`${root}/`);
    if (inside && (!best || root.length > best.length)) best = { name, length: root.length };
  }
  return best?.name;
}

/** A workspace file's text, or '' when it cannot be read (a file Nx listed that is gone). */
export function readText(workspaceRoot: string, file: string): string {
  try {
    return readFileSync(join(workspaceRoot, file), 'utf8');
  } catch {
    return '';
  }
}

/** Adds a dependency edge from `source` to `target`'s project, found in `sourceFile`. */
export type Edge = (source: string, target: string | undefined, sourceFile: string) => void;
