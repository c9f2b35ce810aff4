import type { ParseCache } from '@suture/core/analysis';
import { readCrate, type CrateMap } from './analyzer/rust-crate.js';
import { isTestAttribute } from './analyzer/rust-syntax.js';
import type { Locate } from './libtest.js';
import type { CargoMetadata } from './metadata.js';

/** Kinds of target whose binaries `cargo test` runs. */
export const TESTED_KINDS = new Set(['lib', 'bin', 'test', 'proc-macro']);

/**
 * Where each test of the project's test targets is defined, read from the sources before the run
 * (libtest's output names a test by its module path only): one crate map per target root file.
 */
export async function testLocator(
  root: string,
  meta: CargoMetadata,
  parser: ParseCache,
): Promise<{ locate: Locate; crates: Map<string, CrateMap> }> {
  const crates = new Map<string, CrateMap>();
  const targets = meta.packages
    .flatMap((p) => p.targets)
    .filter((t) => TESTED_KINDS.has(t.kind) && !t.src.startsWith('/'));
  await Promise.all(
    targets.map(async (t) => {
      crates.set(t.src, await readCrate(root, t.src, parser));
    }),
  );
  const index = new Map<string, Map<string, { file: string; line: number }>>();
  for (const [src, crate] of crates) {
    const byName = new Map<string, { file: string; line: number }>();
    for (const f of crate.functions)
      if (f.attributes.some(isTestAttribute)) byName.set(f.path, { file: f.file, line: f.line });
    index.set(src, byName);
  }
  return { locate: (section, name) => index.get(section.key)?.get(name), crates };
}
