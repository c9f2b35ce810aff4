import { readdir } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * The files and links below `root` (root-relative, POSIX), entering neither the folders named in
 * `skip` (anywhere in the tree) nor those `skipPath` names (root-relative), and, when `only` is
 * given, starting from those top-level names alone.
 */
export async function walkFiles(
  root: string,
  options: { skip?: ReadonlySet<string>; skipPath?: ReadonlySet<string>; only?: readonly string[] } = {},
): Promise<string[]> {
  const out: string[] = [];
  const visit = async (rel: string): Promise<void> => {
    const entries = await readdir(join(root, rel), { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      const path = rel ? `${rel}/${entry.name}` : entry.name;
      if (!rel && options.only && !options.only.includes(entry.name)) continue;
      if (entry.isDirectory()) {
        if (!options.skip?.has(entry.name) && !options.skipPath?.has(path)) await visit(path);
      } else out.push(path);
    }
  };
  await visit('');
  return out;
}
