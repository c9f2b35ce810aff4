import { dirname, join } from 'node:path/posix';
import type { CreateDependencies, RawProjectGraphDependency } from 'nx/src/devkit-exports.js';
import { cargoDependencies } from './dependencies-cargo.js';
import { goDependencies } from './dependencies-go.js';
import { normalize, projectOf, readText as read } from './owners.js';

/** A file that says what its project provides or uses, and the project it belongs to. */
interface Owned {
  project: string;
  file: string;
}

const PY_IMPORT =
  /^\s*(?:from\s+([A-Za-z_]\w*)[\w.]*\s+import\b|import\s+([A-Za-z_][\w.]*(?:\s*,\s*[A-Za-z_][\w.]*)*))/gm;
const CMAKE_LIBRARY = /\badd_library\s*\(\s*([\w.+-]+)/gi;
const CMAKE_LINK = /\btarget_link_libraries\s*\(([^)]*)\)/gi;
const CMAKE_SUBDIR = /\badd_subdirectory\s*\(\s*"?([^\s")]+)/gi;
const CMAKE_KEYWORDS = new Set(['PUBLIC', 'PRIVATE', 'INTERFACE', 'debug', 'optimized', 'general']);

/** The top-level Python modules a file makes importable: `pkg/__init__.py`, `src/pkg/__init__.py`, `mod.py`. */
function pythonModule(file: string, root: string): string | undefined {
  const rel = root === '.' ? file : file.slice(root.length + 1);
  const pkg = /^(?:src\/)?([A-Za-z_]\w*)\/__init__\.py$/.exec(rel)?.[1];
  if (pkg) return pkg;
  const mod = /^(?:src\/)?([A-Za-z_]\w*)\.py$/.exec(rel)?.[1];
  return mod && !/^(test_|conftest$|setup$)/.test(mod) ? mod : undefined;
}

/**
 * Edges Nx's own graph misses: a Python project importing a module another project provides, a
 * CMake project linking a library another defines or adding its folder, a Rust crate's path
 * dependencies and workspace members, a Go module's local replacements and go.work modules. JavaScript workspace
 * dependencies are Nx's own (package.json and imports), so they are not repeated here.
 */
export const createDependencies: CreateDependencies = (_options, context) => {
  const roots = new Map(Object.entries(context.projects).map(([name, p]) => [name, normalize(p.root)]));
  const python: Owned[] = [];
  const cmake: Owned[] = [];
  const cargo: Owned[] = [];
  const go: Array<{ project: string | undefined; file: string }> = [];
  const providers = new Map<string, string>();
  const libraries = new Map<string, string>();
  for (const [project, files] of Object.entries(context.fileMap.projectFileMap)) {
    const root = roots.get(project) ?? '.';
    for (const { file } of files) {
      if (file.endsWith('.py')) {
        python.push({ project, file });
        const mod = pythonModule(file, root);
        if (mod && !providers.has(mod)) providers.set(mod, project);
      } else if (/(^|\/)Cargo\.toml$/.test(file)) {
        cargo.push({ project, file });
      } else if (/(^|\/)go\.(mod|work)$/.test(file)) {
        go.push({ project, file });
      } else if (/(^|\/)CMakeLists\.txt$|\.cmake$/.test(file)) {
        cmake.push({ project, file });
        for (const m of read(context.workspaceRoot, file).matchAll(CMAKE_LIBRARY))
          libraries.set(m[1]!, project);
      }
    }
  }
  for (const { file } of context.fileMap.nonProjectFiles ?? [])
    if (/(^|\/)go\.work$/.test(file)) go.push({ project: undefined, file });
  const edges = new Map<string, RawProjectGraphDependency>();
  const edge = (source: string, target: string | undefined, sourceFile: string): void => {
    if (!target || target === source || edges.has(`${source}>${target}`)) return;
    edges.set(`${source}>${target}`, {
      source,
      target,
      sourceFile,
      type: 'static',
    } as RawProjectGraphDependency);
  };
  for (const { project, file } of python) {
    for (const m of read(context.workspaceRoot, file).matchAll(PY_IMPORT)) {
      const names = m[1] ? [m[1]] : m[2]!.split(',').map((n) => n.trim().split('.')[0]!);
      for (const name of names) edge(project, providers.get(name), file);
    }
  }
  for (const { project, file } of cmake) {
    const text = read(context.workspaceRoot, file);
    for (const m of text.matchAll(CMAKE_LINK))
      for (const lib of m[1]!.split(/\s+/).slice(1))
        if (!CMAKE_KEYWORDS.has(lib)) edge(project, libraries.get(lib), file);
    for (const m of text.matchAll(CMAKE_SUBDIR))
      edge(project, projectOf(normalize(join(dirname(file), m[1]!)), roots), file);
  }
  cargoDependencies(context.workspaceRoot, cargo, roots, edge);
  goDependencies(context.workspaceRoot, go, roots, edge);
  return [...edges.values()];
};
