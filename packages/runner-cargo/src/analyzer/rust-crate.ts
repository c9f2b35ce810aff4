import { readFile } from 'node:fs/promises';
import { basename, dirname, join, posix } from 'node:path';
import type { ParseCache } from '@suture/core/analysis';
import { summarizeRust, type RustFileSummary, type RustFunction } from './rust-syntax.js';

/** A function of a crate, with the module path it has in the crate and the file it is in. */
export interface CrateFunction extends RustFunction {
  /** Project-relative POSIX path of its file. */
  file: string;
  /** Its path from the crate root: `tests::adds`, `shapes::Circle::area`. */
  path: string;
}

/** One crate read from its root file through its `mod` declarations. */
export interface CrateMap {
  /** The crate's root file (`src/lib.rs`, `tests/api.rs`), project-relative. */
  root: string;
  /** Every file of the crate with the module path it holds. */
  files: Map<string, string[]>;
  functions: CrateFunction[];
  /** Files that could not be read or parsed, with why. */
  skipped: string[];
}

const MAX_FILES = 400;

/** The folder a file's child modules live in: its own for a crate root or `mod.rs`, else one named after it. */
function childDir(file: string, crateRoot: boolean): string {
  const name = basename(file);
  if (crateRoot || name === 'mod.rs') return dirname(file);
  return join(dirname(file), name.replace(/\.rs$/, ''));
}

async function readText(path: string): Promise<string | undefined> {
  return readFile(path, 'utf8').catch(() => undefined);
}

/**
 * Reads a crate from its root file: every `mod x;` is followed to `x.rs` or `x/mod.rs` (or its
 * `#[path]`), and every function gets the path libtest names it by (`tests::adds`).
 */
export async function readCrate(
  projectRoot: string,
  rootFile: string,
  parser: ParseCache,
  summary: (file: string, source: string) => RustFileSummary = (_, s) =>
    summarizeRust(parser.parseText(s).tree),
): Promise<CrateMap> {
  const map: CrateMap = { root: rootFile, files: new Map(), functions: [], skipped: [] };
  const queue: Array<{ file: string; module: string[]; crateRoot: boolean }> = [
    { file: rootFile, module: [], crateRoot: true },
  ];
  while (queue.length > 0 && map.files.size < MAX_FILES) {
    const { file, module, crateRoot } = queue.shift()!;
    if (map.files.has(file)) continue;
    const source = await readText(join(projectRoot, file));
    if (source === undefined) {
      map.skipped.push(`${file} cannot be read`);
      continue;
    }
    map.files.set(file, module);
    const s = summary(file, source);
    for (const f of s.functions)
      map.functions.push({
        ...f,
        file,
        path: [...module, f.name].join('::'),
        module: [...module, ...f.module],
      });
    for (const m of s.modules) {
      if (m.inline) continue;
      const base = posix.join(childDir(file, crateRoot), ...m.parent);
      const candidates = m.path
        ? [posix.join(m.parent.length > 0 ? base : dirname(file), m.path)]
        : [posix.join(base, `${m.name}.rs`), posix.join(base, m.name, 'mod.rs')];
      for (const c of candidates) {
        if ((await readText(join(projectRoot, c))) === undefined) continue;
        queue.push({ file: c, module: [...module, ...m.parent, m.name], crateRoot: false });
        break;
      }
    }
  }
  return map;
}
