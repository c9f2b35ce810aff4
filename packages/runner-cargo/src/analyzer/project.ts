import type { ParseCache } from '@suture/core/analysis';
import { readMetadata } from '../metadata.js';
import { TESTED_KINDS } from '../locate.js';
import { readCrate, type CrateFunction } from './rust-crate.js';

/** Every function of a project's crates (libraries, binaries, integration tests), by file and by name. */
export interface RustProject {
  functions: CrateFunction[];
  byFile: Map<string, CrateFunction[]>;
  byName: Map<string, CrateFunction[]>;
  skipped: string[];
}

/** The last segment of a function's in-file name: what a call names it by. */
export const shortName = (f: { name: string }): string => f.name.split('::').at(-1)!;

/** Reads the project's crates from `cargo metadata`'s targets (or `src/lib.rs`, `src/main.rs` and `tests/` without cargo). */
export async function readProject(root: string, parser: ParseCache, cargo = 'cargo'): Promise<RustProject> {
  const meta = await readMetadata(cargo, root, process.env as Record<string, string>);
  const roots =
    'error' in meta
      ? ['src/lib.rs', 'src/main.rs']
      : meta.packages
          .flatMap((p) => p.targets)
          .filter((t) => TESTED_KINDS.has(t.kind) && !t.src.startsWith('/'))
          .map((t) => t.src);
  const project: RustProject = { functions: [], byFile: new Map(), byName: new Map(), skipped: [] };
  const seen = new Set<string>();
  for (const r of roots) {
    const crate = await readCrate(root, r, parser);
    project.skipped.push(...crate.skipped.filter(() => !('error' in meta)));
    for (const f of crate.functions) {
      const key = `${f.file}\0${f.name}`;
      if (seen.has(key)) continue;
      seen.add(key);
      project.functions.push(f);
      project.byFile.set(f.file, [...(project.byFile.get(f.file) ?? []), f]);
      project.byName.set(shortName(f), [...(project.byName.get(shortName(f)) ?? []), f]);
    }
  }
  return project;
}

/** The innermost function of `file` around a 1-based line. */
export function functionAt(project: RustProject, file: string, line: number): CrateFunction | undefined {
  let best: CrateFunction | undefined;
  for (const f of project.byFile.get(file) ?? [])
    if ((f.attrLine ?? f.line) <= line && line <= f.endLine && (!best || f.line >= best.line)) best = f;
  return best;
}
