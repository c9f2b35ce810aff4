import { createHash } from 'node:crypto';
import { cp, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import picomatch from 'picomatch';
import type { Logger } from '../api/plugin.js';

export class ConformanceError extends Error {
  override name = 'ConformanceError';
}

export function check(condition: unknown, message: string): asserts condition {
  if (!condition) throw new ConformanceError(message);
}

export const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} };

/** Copies a fixture project into a fresh folder (under `parent`, default the OS temp dir). */
export async function copyFixture(
  fixture: string,
  parent = tmpdir(),
): Promise<{ root: string; dispose: () => Promise<void> }> {
  const base = await mkdtemp(join(parent, 'suture-conformance-'));
  const root = join(base, 'project');
  await cp(fixture, root, { recursive: true });
  return { root, dispose: () => rm(base, { recursive: true, force: true }) };
}

/** Hashes every file under `root` (except ignored globs) so a test can prove nothing was written. */
export async function snapshotTree(root: string, ignore: readonly string[]): Promise<Map<string, string>> {
  const isIgnored = picomatch([...ignore], { dot: true });
  const files = new Map<string, string>();
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const abs = join(dir, entry.name);
      const rel = relative(root, abs).split('\\').join('/');
      if (isIgnored(rel) || isIgnored(`${rel}/`)) continue;
      if (entry.isDirectory()) await walk(abs);
      else if (entry.isFile())
        files.set(
          rel,
          createHash('sha1')
            .update(await readFile(abs))
            .digest('hex'),
        );
    }
  };
  await walk(root);
  return files;
}

export function diffSnapshots(before: Map<string, string>, after: Map<string, string>): string[] {
  const changed: string[] = [];
  for (const [file, hash] of after)
    if (before.get(file) !== hash) changed.push(before.has(file) ? `modified ${file}` : `created ${file}`);
  for (const file of before.keys()) if (!after.has(file)) changed.push(`deleted ${file}`);
  return changed;
}
