import { readFile, realpath } from 'node:fs/promises';
import { relative } from 'node:path';
import { toPosix } from '../paths.js';
import { inside } from './mode-context.js';

/** A mountinfo path: spaces, tabs, newlines and backslashes are octal escapes there. */
function unescapeMount(path: string): string {
  return path.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(parseInt(octal, 8)));
}

/**
 * The mount points strictly inside `root` (project-relative, POSIX), none where the platform has
 * no /proc/self/mountinfo. An overlay view cannot show them: the namespace a view is made in may
 * not bind a tree with mounts below it (the kernel answers EINVAL), and an overlay's lower layer
 * would show the folders under them, not what is mounted there.
 */
export async function mountsInside(root: string): Promise<string[]> {
  let info: string;
  try {
    info = await readFile('/proc/self/mountinfo', 'utf8');
  } catch {
    return [];
  }
  const real = await realpath(root).catch(() => root);
  const found = new Set<string>();
  for (const line of info.split('\n')) {
    const point = line.split(' ')[4];
    if (!point) continue;
    const path = unescapeMount(point);
    if (path !== real && inside(real, path)) found.add(toPosix(relative(real, path)));
  }
  return [...found].sort();
}
