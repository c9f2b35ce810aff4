import { dirname, join } from 'node:path/posix';
import { normalize, projectOf, readText as read, type Edge } from './owners.js';

/** The `path = "..."` of every dependency table of a Cargo.toml (inline or `[dependencies.x]`), as written. */
export function cargoPathDependencies(toml: string): string[] {
  const paths: string[] = [];
  let table = '';
  for (const raw of toml.split('\n')) {
    const line = raw.replace(/#.*$/, '').trim();
    const header = /^\[([^\]]+)\]$/.exec(line);
    if (header) {
      table = header[1]!.trim();
      continue;
    }
    const deps = /(?:^|\.)(?:dev-|build-)?dependencies$/.test(table);
    const dotted = /(?:^|\.)(?:dev-|build-)?dependencies\.[\w-]+$/.test(table);
    if (deps) {
      const path = /^[\w-]+\s*=\s*\{[^}]*\bpath\s*=\s*"([^"]+)"/.exec(line)?.[1];
      if (path) paths.push(path);
    } else if (dotted) {
      const path = /^path\s*=\s*"([^"]+)"/.exec(line)?.[1];
      if (path) paths.push(path);
    }
  }
  return paths;
}

/** The `members` of a Cargo.toml's `[workspace]`, as written (globs kept). */
export function cargoMembers(toml: string): string[] {
  const section = /^\[workspace\][^]*?(?=^\[|(?![^]))/m.exec(toml)?.[0] ?? '';
  const list = /^\s*members\s*=\s*\[([^\]]*)\]/m.exec(section)?.[1] ?? '';
  return [...list.matchAll(/"([^"]+)"|'([^']+)'/g)].map((m) => m[1] ?? m[2]!);
}

/**
 * Edges of Rust projects: a crate on another project's crate through a `path` dependency (in
 * `[dependencies]`, `[dev-dependencies]`, `[build-dependencies]`, target tables and
 * `[workspace.dependencies]`), and a workspace on its members (`members = ["crates/*"]` as globs
 * of one level), since `cargo test --workspace` tests them.
 */
export function cargoDependencies(
  workspaceRoot: string,
  manifests: ReadonlyArray<{ project: string; file: string }>,
  roots: ReadonlyMap<string, string>,
  edge: Edge,
): void {
  for (const { project, file } of manifests) {
    const toml = read(workspaceRoot, file);
    const dir = dirname(file);
    for (const path of cargoPathDependencies(toml))
      edge(project, projectOf(normalize(join(dir, path)), roots), file);
    for (const member of cargoMembers(toml)) {
      if (!member.includes('*')) {
        edge(project, projectOf(normalize(join(dir, member)), roots), file);
        continue;
      }
      // `crates/*`: the projects one folder below `crates/`
      const base = normalize(join(dir, member.slice(0, member.indexOf('*'))));
      for (const [name, root] of roots) {
        const rest =
          base === '.' ? root : root.startsWith(`${base}/`) ? root.slice(base.length + 1) : undefined;
        if (rest && root !== normalize(dir) && !rest.includes('/')) edge(project, name, file);
      }
    }
  }
}
