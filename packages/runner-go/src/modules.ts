import { readFile } from 'node:fs/promises';
import { join, posix } from 'node:path';

/** A Go module of the project: its folder (relative to the root, `.` for the root) and its path. */
export interface GoModule {
  dir: string;
  path: string;
}

/** The module path a go.mod declares (`module example.com/calc`). */
export function modulePath(goMod: string): string | undefined {
  const m = /^\s*module\s+("?)([^\s"]+)\1\s*(?:\/\/.*)?$/m.exec(goMod);
  return m?.[2];
}

/** The folders a go.work uses, as written (`use ./api`, `use ( ./a ./b )`). */
export function workspaceUses(goWork: string): string[] {
  const text = goWork.replace(/\/\/.*$/gm, '');
  const out: string[] = [];
  for (const m of text.matchAll(/^\s*use\s+(?:\(([^)]*)\)|("?)([^\s"]+)\2)/gm)) {
    const items = m[1] !== undefined ? m[1].split(/\s+/) : [m[3]!];
    for (const item of items) {
      const dir = item.replace(/^"|"$/g, '').trim();
      if (dir) out.push(dir);
    }
  }
  return out;
}

const readText = (file: string): Promise<string | undefined> => readFile(file, 'utf8').catch(() => undefined);

/** The modules under the project root: the root's go.mod, or every module its go.work uses. */
export async function projectModules(root: string): Promise<GoModule[]> {
  const out: GoModule[] = [];
  const work = await readText(join(root, 'go.work'));
  const dirs = work ? workspaceUses(work).map((d) => posix.normalize(d.replace(/\\/g, '/'))) : ['.'];
  if (!dirs.includes('.')) dirs.push('.');
  for (const dir of dirs) {
    const mod = await readText(join(root, dir, 'go.mod'));
    const path = mod ? modulePath(mod) : undefined;
    if (path && !dir.startsWith('..')) out.push({ dir: dir === '' ? '.' : dir, path });
  }
  // the longest module path first: a nested module's packages are its own
  return out.sort((a, b) => b.path.length - a.path.length);
}

/** The project-relative folder of a package, from its import path; undefined outside the modules. */
export function packageDir(importPath: string, modules: readonly GoModule[]): string | undefined {
  for (const m of modules) {
    if (importPath !== m.path && !importPath.startsWith(`${m.path}/`)) continue;
    const rest = importPath.slice(m.path.length + 1);
    const dir = posix.join(m.dir, rest);
    return dir === '' ? '.' : dir;
  }
  return undefined;
}
