import { execFile } from 'node:child_process';
import { lstat, mkdir, readdir, readFile, readlink, stat, symlink, writeFile } from 'node:fs/promises';
import { dirname, join, posix } from 'node:path';
import { promisify } from 'node:util';
import { sha256 } from '../../safety/atomic.js';
import { SUTURE_DIR } from '../../safety/suture-dir.js';

const run = promisify(execFile);

/** Folders a walk never copies: version control, suture's own, dependencies and build outputs. */
const SKIPPED = new Set([
  '.git',
  SUTURE_DIR,
  'node_modules',
  '__pycache__',
  '.pytest_cache',
  'build',
  'build-suture',
  'dist',
  'out',
  'target',
  '.venv',
  'venv',
  'env',
]);

/** Dependency folders the copy links to instead of copying: read by the tests, too big to copy. */
const LINKED = new Set(['node_modules', '.venv', 'venv', 'env']);

export interface TreeCopy {
  /** Repository-relative POSIX path -> sha256 of the bytes copied. */
  hashes: Map<string, string>;
  /** Dependency folders linked, not copied (repository-relative). */
  linked: string[];
}

async function gitFiles(root: string): Promise<{ files: string[]; ignoredDirs: string[] } | undefined> {
  try {
    const opts = { cwd: root, maxBuffer: 256 * 1024 * 1024 };
    const listed = await run('git', ['ls-files', '-co', '--exclude-standard', '-z'], opts);
    const ignored = await run(
      'git',
      ['ls-files', '-o', '-i', '--exclude-standard', '--directory', '-z'],
      opts,
    );
    return {
      files: listed.stdout.split('\0').filter(Boolean),
      ignoredDirs: ignored.stdout
        .split('\0')
        .filter((p) => p.endsWith('/'))
        .map((p) => p.slice(0, -1)),
    };
  } catch {
    return undefined;
  }
}

async function isVenv(dir: string): Promise<boolean> {
  return stat(join(dir, 'pyvenv.cfg')).then(
    () => true,
    () => false,
  );
}

/** Files of a folder that is not a git work tree: everything but the skipped folders. */
async function walk(root: string, rel = '', out: { files: string[]; deps: string[] }): Promise<void> {
  for (const entry of await readdir(join(root, rel), { withFileTypes: true })) {
    const path = rel ? `${rel}/${entry.name}` : entry.name;
    if (entry.isDirectory()) {
      if (LINKED.has(entry.name) && (entry.name === 'node_modules' || (await isVenv(join(root, path)))))
        out.deps.push(path);
      else if (!SKIPPED.has(entry.name)) await walk(root, path, out);
    } else if (entry.isFile() || entry.isSymbolicLink()) out.files.push(path);
  }
}

/**
 * Copies the project the heal works on: the files git tracks or would track (untracked but not
 * ignored), or, outside git, every file but version control, build and dependency folders.
 * Dependency folders (node_modules, virtualenvs) are linked so the copy's tests import what the
 * caller's do. Returns the hash of every copied file: what `suture_apply` later compares against.
 */
export async function copyTree(root: string, dest: string): Promise<TreeCopy> {
  const listed = await gitFiles(root);
  let files: string[];
  let deps: string[];
  if (listed) {
    files = listed.files.filter((f) => !f.split('/').some((part) => part === SUTURE_DIR));
    deps = [];
    for (const dir of listed.ignoredDirs) {
      const name = posix.basename(dir);
      if (name === 'node_modules' || (LINKED.has(name) && (await isVenv(join(root, dir))))) deps.push(dir);
    }
  } else {
    const out = { files: [] as string[], deps: [] as string[] };
    await walk(root, '', out);
    files = out.files;
    deps = out.deps;
  }
  const hashes = new Map<string, string>();
  const made = new Set<string>();
  const ensureDir = async (dir: string): Promise<void> => {
    if (made.has(dir)) return;
    await mkdir(dir, { recursive: true });
    made.add(dir);
  };
  for (const file of files) {
    const from = join(root, file);
    const to = join(dest, file);
    const info = await lstat(from).catch(() => undefined);
    // Listed by git but deleted in the work tree: the copy has it deleted too.
    if (!info) continue;
    await ensureDir(dirname(to));
    if (info.isSymbolicLink()) {
      await symlink(await readlink(from), to);
      continue;
    }
    if (!info.isFile()) continue;
    const bytes = await readFile(from);
    await writeFile(to, bytes, { mode: info.mode & 0o7777 });
    hashes.set(file, sha256(bytes));
  }
  for (const dir of deps) {
    await ensureDir(dirname(join(dest, dir)));
    await symlink(join(root, dir), join(dest, dir), 'dir');
  }
  return { hashes, linked: deps };
}
