import { readFile, readdir } from 'node:fs/promises';
import { isAbsolute, join, posix, relative, resolve } from 'node:path';

/** What the build says about the project's translation units. */
export interface CompileDb {
  /** The project-relative build folder it was found in. */
  buildDir: string;
  /** Project-relative sources the build compiles. */
  units: string[];
  /** Project-relative include folders (`-I`, `-iquote`, `-isystem`) of each unit. */
  includeDirs: Map<string, string[]>;
  /** Every project include folder of any unit, for headers (they have no command of their own). */
  allIncludeDirs: string[];
  /** Names each unit's command defines (`-DNAME`, `-D NAME=1`). */
  defines: Map<string, string[]>;
  /** Every name any unit's command defines, for headers. */
  allDefines: string[];
  /** The build target each unit is compiled for (`CMakeFiles/<target>.dir/...`). */
  targets: Map<string, string[]>;
}

/** Build folders looked in for `compile_commands.json`: suture's own first. */
const BUILD_DIRS = ['build-suture', 'build', 'cmake-build-debug', 'cmake-build-release', 'out'];

interface Command {
  directory: string;
  file: string;
  arguments?: string[];
  command?: string;
  output?: string;
}

/** Splits a command line as a shell would, for the quoting CMake writes. */
function splitCommand(command: string): string[] {
  const out: string[] = [];
  for (const m of command.matchAll(/"((?:[^"\\]|\\.)*)"|'([^']*)'|(\S+)/g)) out.push(m[1] ?? m[2] ?? m[3]!);
  return out;
}

/**
 * The project's `compile_commands.json` (CMake writes it with CMAKE_EXPORT_COMPILE_COMMANDS, as the
 * CTest runner's build does): each unit's include folders and target. Undefined without one.
 */
export async function readCompileDb(root: string): Promise<CompileDb | undefined> {
  const dirs = [
    ...BUILD_DIRS,
    ...(await readdir(root, { withFileTypes: true }).catch(() => []))
      .filter((e) => e.isDirectory() && !BUILD_DIRS.includes(e.name))
      .map((e) => e.name),
  ];
  for (const dir of dirs) {
    const text = await readFile(join(root, dir, 'compile_commands.json'), 'utf8').catch(() => undefined);
    if (!text) continue;
    let commands: Command[];
    try {
      commands = JSON.parse(text) as Command[];
    } catch {
      continue;
    }
    return toDb(root, dir, commands);
  }
  return undefined;
}

function toDb(root: string, buildDir: string, commands: readonly Command[]): CompileDb {
  const inProject = (abs: string): string | undefined => {
    const rel = relative(root, abs).split('\\').join('/');
    if (rel.startsWith('..') || isAbsolute(rel) || rel === buildDir || rel.startsWith(`${buildDir}/`))
      return undefined;
    return rel;
  };
  const db: CompileDb = {
    buildDir,
    units: [],
    includeDirs: new Map(),
    allIncludeDirs: [],
    defines: new Map(),
    allDefines: [],
    targets: new Map(),
  };
  const all = new Set<string>();
  const allDefines = new Set<string>();
  for (const c of commands) {
    const file = inProject(resolve(c.directory, c.file));
    if (!file) continue;
    const args = c.arguments ?? splitCommand(c.command ?? '');
    const dirs: string[] = [];
    const defines: string[] = [];
    for (let i = 0; i < args.length; i++) {
      const a = args[i]!;
      if (a.startsWith('-D')) {
        const name = /^\w+/.exec(a.length > 2 ? a.slice(2) : (args[++i] ?? ''))?.[0];
        if (name) defines.push(name);
        continue;
      }
      const flag = ['-I', '-iquote', '-isystem', '-idirafter'].find((f) => a.startsWith(f));
      if (!flag) continue;
      const value = a.length > flag.length ? a.slice(flag.length) : args[++i];
      const dir = value ? inProject(resolve(c.directory, value)) : undefined;
      if (dir !== undefined) dirs.push(dir);
    }
    if (!db.includeDirs.has(file)) db.units.push(file);
    db.includeDirs.set(file, [...new Set([...(db.includeDirs.get(file) ?? []), ...dirs])]);
    for (const d of dirs) all.add(d);
    db.defines.set(file, [...new Set([...(db.defines.get(file) ?? []), ...defines])]);
    for (const d of defines) allDefines.add(d);
    const target = /CMakeFiles\/([^/]+)\.dir\//.exec(c.output ?? args.join(' '))?.[1];
    if (target) db.targets.set(target, [...(db.targets.get(target) ?? []), file]);
  }
  db.allIncludeDirs = [...all];
  db.allDefines = [...allDefines];
  return db;
}

/** `dir/path` normalised, or undefined when it climbs out of the project. */
export function joinInProject(dir: string, path: string): string | undefined {
  const joined = posix.normalize(posix.join(dir, path));
  return joined.startsWith('..') ? undefined : joined.replace(/^\.\//, '');
}
