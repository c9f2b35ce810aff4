import { readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { DetectedProject } from '@suture/core';

/** The `[workspace] members = [...]` of a Cargo.toml, as written (globs kept). */
export function workspaceMembers(toml: string): string[] | undefined {
  const section = /^\[workspace\][^]*?(?=^\[|(?![^]))/m.exec(toml)?.[0];
  if (!section) return undefined;
  const list = /^\s*members\s*=\s*\[([^\]]*)\]/m.exec(section)?.[1] ?? '';
  return [...list.matchAll(/"([^"]+)"|'([^']+)'/g)].map((m) => m[1] ?? m[2]!);
}

/** The `name` of a Cargo.toml's `[package]`. */
export function packageName(toml: string): string | undefined {
  const section = /^\[package\][^]*?(?=^\[|(?![^]))/m.exec(toml)?.[0];
  return section ? /^\s*name\s*=\s*"([^"]+)"/m.exec(section)?.[1] : undefined;
}

/**
 * A Cargo.toml: a crate (`[package]`) or a workspace (`[workspace]` with members, tested as
 * `cargo test --workspace` does). A member of a workspace found at a folder above is left to the
 * workspace's project.
 */
export async function detectCargo(dir: string): Promise<DetectedProject | null> {
  const toml = await readFile(join(dir, 'Cargo.toml'), 'utf8').catch(() => undefined);
  if (toml === undefined) return null;
  for (let up = join(dir, '..'), i = 0; i < 6 && up !== join(up, '..'); up = join(up, '..'), i++) {
    const parent = await readFile(join(up, 'Cargo.toml'), 'utf8').catch(() => undefined);
    const members = parent ? workspaceMembers(parent) : undefined;
    if (members && members.length > 0) return null;
  }
  const members = workspaceMembers(toml);
  const name = packageName(toml) ?? basename(dir);
  if (members && members.length > 0)
    return {
      name,
      reason: `Cargo.toml workspace (${members.join(', ')})`,
      options: { args: ['--workspace'] },
      notes: [`a workspace of ${members.length} member pattern(s): suture runs cargo test --workspace`],
    };
  if (!/^\[package\]/m.test(toml)) return null;
  return { name, reason: 'Cargo.toml [package]' };
}
