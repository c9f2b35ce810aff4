import { dirname, join } from 'node:path/posix';
import { normalize, projectOf, readText as read, type Edge } from './owners.js';

/** A go.mod or go.work without its `//` comments. */
const uncomment = (text: string): string => text.replace(/\/\/.*$/gm, '');

/** The directives `keyword` of a go.mod/go.work, single-line and in `keyword ( ... )` blocks, as lines. */
function directives(text: string, keyword: string): string[] {
  const out: string[] = [];
  const lines = uncomment(text).split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (line === `${keyword} (`) {
      for (i++; i < lines.length && lines[i]!.trim() !== ')'; i++)
        if (lines[i]!.trim()) out.push(lines[i]!.trim());
    } else if (line.startsWith(`${keyword} `) || line.startsWith(`${keyword}\t`))
      out.push(line.slice(keyword.length).trim());
  }
  return out;
}

const unquote = (s: string): string => s.replace(/^"(.*)"$/, '$1').replace(/^`(.*)`$/, '$1');

/** A go.mod's `module` path. */
export function goModulePath(gomod: string): string | undefined {
  const first = directives(gomod, 'module')[0];
  return first ? unquote(first.split(/\s+/)[0]!) : undefined;
}

/** The module paths a go.mod `require`s. */
export function goRequires(gomod: string): string[] {
  return directives(gomod, 'require').map((d) => unquote(d.split(/\s+/)[0]!));
}

/**
 * The local replacements of a go.mod: `replace example.com/x => ../x` (a target that is a path,
 * `./` or `../`, not another module version), as module path → folder, as written.
 */
export function goLocalReplaces(gomod: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const d of directives(gomod, 'replace')) {
    const [from, to] = d.split('=>').map((s) => s.trim());
    const target = to ? unquote(to.split(/\s+/)[0]!) : '';
    if (from && /^\.\.?(\/|$)/.test(target)) out.set(unquote(from.split(/\s+/)[0]!), target);
  }
  return out;
}

/** The folders a go.work `use`s, as written. */
export function goWorkUses(gowork: string): string[] {
  return directives(gowork, 'use').map((d) => unquote(d));
}

/**
 * Edges of Go projects: a module on another project's module that it requires and takes from the
 * repository (a `replace` to a local folder, or both used by one go.work), and a go.work's
 * project on each module it uses, since `go test` in the workspace builds them. A require that is
 * fetched from the module proxy names no project, so it adds no edge. A go.work outside every
 * project (`project` undefined) still says which modules come from the repository.
 */
export function goDependencies(
  workspaceRoot: string,
  manifests: ReadonlyArray<{ project: string | undefined; file: string }>,
  roots: ReadonlyMap<string, string>,
  edge: Edge,
): void {
  const mods = manifests.filter((m) => m.file === 'go.mod' || m.file.endsWith('/go.mod'));
  const works = manifests.filter((m) => m.file === 'go.work' || m.file.endsWith('/go.work'));
  // per module folder that a go.work uses: the module paths that go.work takes from the repository
  const workOf = new Map<string, Map<string, string>>();
  for (const { project, file } of works) {
    const dir = dirname(file);
    const modules = new Map<string, string>();
    for (const use of goWorkUses(read(workspaceRoot, file))) {
      const folder = normalize(join(dir, use));
      if (project) edge(project, projectOf(folder, roots), file);
      const path = goModulePath(read(workspaceRoot, folder === '.' ? 'go.mod' : `${folder}/go.mod`));
      if (path) modules.set(path, folder);
    }
    for (const folder of modules.values()) workOf.set(folder, modules);
  }
  for (const { project, file } of mods) {
    if (!project) continue;
    const text = read(workspaceRoot, file);
    const dir = dirname(file);
    const replaces = goLocalReplaces(text);
    for (const required of goRequires(text)) {
      const local = replaces.get(required);
      const folder = local !== undefined ? normalize(join(dir, local)) : workOf.get(dir)?.get(required);
      if (folder !== undefined) edge(project, projectOf(folder, roots), file);
    }
  }
}
