import { isAbsolute, relative } from 'node:path';
import { runProcess } from '@suture/core';
import { toPosix } from './paths.js';

/** A cargo target a test binary is built from. */
export interface CargoTarget {
  /** `lib`, `bin`, `test`, `example`, `bench`, `proc-macro` (cargo's first kind). */
  kind: string;
  name: string;
  /** Project-relative POSIX path of its root file (absolute when outside the project). */
  src: string;
  doctest: boolean;
}

export interface CargoPackage {
  name: string;
  /** Project-relative POSIX folder of its Cargo.toml ('' for the project root). */
  dir: string;
  targets: CargoTarget[];
}

export interface CargoMetadata {
  workspaceRoot: string;
  targetDirectory: string;
  packages: CargoPackage[];
  /** Packages a plain `cargo test` in the project root tests (the default members). */
  defaults: string[];
}

interface RawMetadata {
  packages: Array<{
    name: string;
    id: string;
    manifest_path: string;
    targets: Array<{ kind: string[]; name: string; src_path: string; doctest?: boolean }>;
  }>;
  workspace_default_members?: string[];
  workspace_members: string[];
  workspace_root: string;
  target_directory: string;
}

/** A path as the project names it: relative to its root when inside, else as given. */
export function projectPath(root: string, path: string): string {
  const rel = relative(root, path);
  return rel.startsWith('..') || isAbsolute(rel) ? toPosix(path) : toPosix(rel);
}

/** Reads the project's packages and targets with `cargo metadata --no-deps` (offline, no resolution). */
export async function readMetadata(
  cargo: string,
  root: string,
  env: Record<string, string>,
  signal?: AbortSignal,
): Promise<CargoMetadata | { error: string }> {
  const proc = await runProcess(cargo, ['metadata', '--no-deps', '--format-version', '1', '--offline'], {
    cwd: root,
    env,
    timeoutMs: 60_000,
    ...(signal ? { signal } : {}),
  });
  if (proc.spawnError) return { error: `cannot start ${cargo}: ${proc.spawnError}` };
  const line = proc.output.split('\n').find((l) => l.startsWith('{"packages"'));
  if (proc.exitCode !== 0 || !line)
    return {
      error: `cargo metadata failed in ${root}:\n${proc.output.trim().split('\n').slice(-10).join('\n')}`,
    };
  const raw = JSON.parse(line) as RawMetadata;
  const dir = (manifest: string): string =>
    projectPath(root, manifest.replace(/\/?Cargo\.toml$/, '')).replace(/^\.$/, '');
  const packages = raw.packages.map((p) => ({
    name: p.name,
    dir: dir(p.manifest_path) === '' || dir(p.manifest_path) === root ? '' : dir(p.manifest_path),
    targets: p.targets.map((t) => ({
      kind: t.kind[0] ?? 'lib',
      name: t.name,
      src: projectPath(root, t.src_path),
      doctest: t.doctest ?? false,
    })),
  }));
  const ids = raw.workspace_default_members ?? raw.workspace_members;
  const defaults = raw.packages.filter((p) => ids.includes(p.id)).map((p) => p.name);
  return { workspaceRoot: raw.workspace_root, targetDirectory: raw.target_directory, packages, defaults };
}

/** The target whose root file is `src` (project-relative). */
export function targetOf(
  meta: CargoMetadata,
  src: string,
): { pkg: CargoPackage; target: CargoTarget } | undefined {
  for (const pkg of meta.packages)
    for (const target of pkg.targets) if (target.src === src) return { pkg, target };
  return undefined;
}
