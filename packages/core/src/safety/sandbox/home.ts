import { lstat, readdir, realpath, stat } from 'node:fs/promises';
import { homedir, userInfo } from 'node:os';
import { delimiter, isAbsolute, join, relative, resolve } from 'node:path';

/**
 * What toolchains installed in the user's home need from it, relative to it: interpreters and
 * version managers (pyenv, rbenv, nvm, Volta), Rust's and Go's toolchains and module caches, the
 * user's own Python packages (`pip install --user`), the browsers test frameworks download, and
 * git's settings (a test that commits needs the user's identity).
 * Shared read-only; the rest of the home (`.aws`, `.ssh`, `.npmrc`, `.netrc`, `.docker`, `.kube`,
 * `.config`...) is hidden. Where a toolchain only writes (build caches), it writes in the run's
 * private temp folder instead (XDG_CACHE_HOME, and Go's GOCACHE under it).
 */
export const SHARED_HOME_PATHS: readonly string[] = [
  '.pyenv',
  '.rbenv',
  '.nvm',
  '.volta',
  '.asdf',
  '.local/share/mise',
  '.fnm',
  '.local/share/fnm',
  '.bun',
  '.deno',
  '.sdkman',
  '.jenv',
  '.linuxbrew',
  '.nix-profile',
  // Python environments the project's interpreter may live in
  '.local/share/virtualenvs',
  '.virtualenvs',
  '.cache/pypoetry/virtualenvs',
  '.local/share/uv',
  '.local/share/pnpm',
  '.conda',
  'miniconda3',
  'anaconda3',
  'miniforge3',
  'mambaforge',
  '.rustup',
  '.cargo/bin',
  '.cargo/registry',
  '.cargo/git',
  '.cargo/config.toml',
  '.cargo/env',
  'go',
  'sdk',
  '.config/go',
  '.local/bin',
  '.local/lib',
  '.conan2',
  '.m2/repository',
  '.gradle/caches',
  '.gradle/wrapper',
  '.cache/ms-playwright',
  '.cache/puppeteer',
  '.cache/Cypress',
  // git's identity and settings, for tests that make commits
  '.gitconfig',
  '.config/git/config',
  '.config/git/ignore',
];

/**
 * Variables a toolchain derives from HOME when they are unset: pinned to the real home's folder
 * (when it exists), so that with HOME private the same interpreter, packages and caches are found.
 */
const TOOLCHAIN_HOMES: ReadonlyArray<[name: string, path: string]> = [
  ['PYENV_ROOT', '.pyenv'],
  ['RBENV_ROOT', '.rbenv'],
  ['NVM_DIR', '.nvm'],
  ['VOLTA_HOME', '.volta'],
  ['CARGO_HOME', '.cargo'],
  ['RUSTUP_HOME', '.rustup'],
  ['GOPATH', 'go'],
  ['GOENV', '.config/go/env'],
  ['PYTHONUSERBASE', '.local'],
  ['GIT_CONFIG_GLOBAL', '.gitconfig'],
];

/** The user's homes: HOME as suture got it, and the account's own (where they differ). */
export function realHomes(env: NodeJS.ProcessEnv = process.env): string[] {
  const homes = new Set<string>();
  if (env.HOME && isAbsolute(env.HOME)) homes.add(resolve(env.HOME));
  try {
    homes.add(resolve(userInfo().homedir));
  } catch {
    homes.add(resolve(homedir()));
  }
  return [...homes].filter((h) => h !== '/');
}

/**
 * A config entry of `sandboxHome` (`~/.cache/pip`, `.cache/pip` or an absolute path in the home)
 * as an absolute path in `home`, or undefined for one outside it.
 */
export function homePath(entry: string, home: string): string | undefined {
  const path = entry.startsWith('~/')
    ? join(home, entry.slice(2))
    : isAbsolute(entry)
      ? resolve(entry)
      : join(home, entry);
  const rel = relative(home, path);
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? path : undefined;
}

/** The toolchain variables a private HOME needs pinned to the real home, for those unset in `env`. */
export async function toolchainHomeEnv(
  home: string,
  env: Readonly<Record<string, string | undefined>>,
): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  await Promise.all(
    TOOLCHAIN_HOMES.map(async ([name, rel]) => {
      if (env[name]) return;
      const path = join(home, rel);
      if (await stat(path).catch(() => undefined)) out[name] = path;
    }),
  );
  return out;
}

/** Whether `path` is `dir` or below it. */
const under = (path: string, dir: string): boolean => {
  const rel = relative(dir, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
};

/** What to cover in a home: folders (with an empty read-only folder) and files (with an empty file). */
export interface HomeCover {
  dirs: string[];
  files: string[];
}

/**
 * The entries of `home` to cover so that only `keep` (absolute paths: the shared toolchain paths,
 * PATH's folders, the project and suture's folders) and what leads to them stay visible. A folder
 * on the way to a kept path is entered and its other entries covered; a link is judged by where it
 * leads, and left alone when that is kept or leads to a kept path.
 */
export async function homeCover(home: string, keep: readonly string[]): Promise<HomeCover> {
  const cover: HomeCover = { dirs: [], files: [] };
  const kept = [...new Set(await Promise.all(keep.map((k) => realpath(k).catch(() => resolve(k)))))];
  const visible = (path: string): 'keep' | 'enter' | 'cover' => {
    if (kept.some((k) => under(path, k))) return 'keep';
    return kept.some((k) => under(k, path)) ? 'enter' : 'cover';
  };
  const walk = async (dir: string, depth: number): Promise<void> => {
    const entries = await readdir(dir).catch(() => [] as string[]);
    await Promise.all(
      entries.map(async (name) => {
        const path = join(dir, name);
        const real = await realpath(path).catch(() => undefined);
        if (!real) return;
        const seen = [visible(path), visible(real)];
        if (seen.includes('keep')) return;
        const st = await lstat(path).catch(() => undefined);
        const isDir = (await stat(path).catch(() => undefined))?.isDirectory() ?? false;
        if (seen.includes('enter')) {
          if (isDir && !st?.isSymbolicLink() && depth < 8) await walk(path, depth + 1);
          return;
        }
        if (isDir) cover.dirs.push(path);
        else if ((await stat(path).catch(() => undefined))?.isFile()) cover.files.push(path);
      }),
    );
  };
  if (visible(home) === 'keep') return cover;
  await walk(home, 0);
  cover.dirs.sort();
  cover.files.sort();
  return cover;
}

/** The folders of a PATH inside `home`: what the user runs from there stays visible. */
export function pathFoldersIn(home: string, path: string | undefined): string[] {
  return (path ?? '')
    .split(delimiter)
    .filter((p) => isAbsolute(p) && under(resolve(p), home) && resolve(p) !== home)
    .map((p) => resolve(p));
}
