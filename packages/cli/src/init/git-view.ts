import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';

/** What git says about the folders under a root: which it ignores and which are submodules. */
export interface GitView {
  /** The work tree's top folder, or undefined when the root is not (usefully) in a git repository. */
  top: string | undefined;
  /** Absolute paths of ignored folders directly listed by git (their contents are ignored too). */
  ignored: ReadonlySet<string>;
  /** Absolute paths of the submodules named in .gitmodules. */
  submodules: ReadonlySet<string>;
}

function git(cwd: string, args: string[]): Promise<{ code: number; stdout: string }> {
  return new Promise((done) => {
    execFile(
      'git',
      args,
      { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, timeout: 60_000 },
      (error, stdout) => done({ code: error ? Number((error as { code?: unknown }).code) || 1 : 0, stdout }),
    );
  });
}

/** `path = x` entries of a .gitmodules file (an INI file git writes itself, one key per line). */
function submodulePaths(text: string): string[] {
  return [...text.matchAll(/^\s*path\s*=\s*(.+?)\s*$/gm)].map((m) => m[1]!.replace(/^"(.*)"$/, '$1'));
}

/**
 * Asks git about `root`. A root that git ignores itself (a scratch folder inside another
 * repository) is treated as outside any repository: every folder under it would count as ignored.
 */
export async function gitView(root: string): Promise<GitView> {
  const none = async (): Promise<GitView> => {
    const text = await readFile(join(root, '.gitmodules'), 'utf8').catch(() => '');
    return {
      top: undefined,
      ignored: new Set(),
      submodules: new Set(submodulePaths(text).map((p) => resolve(root, p))),
    };
  };
  const top = await git(root, ['rev-parse', '--show-toplevel']);
  if (top.code !== 0) return none();
  if ((await git(root, ['check-ignore', '-q', '.'])).code === 0) return none();
  const topDir = top.stdout.trim();
  const listed = await git(root, [
    'ls-files',
    '-z',
    '--others',
    '--ignored',
    '--exclude-standard',
    '--directory',
  ]);
  const ignored = new Set(
    listed.stdout
      .split('\0')
      .filter((p) => p.endsWith('/'))
      .map((p) => resolve(root, p)),
  );
  const text = await readFile(join(topDir, '.gitmodules'), 'utf8').catch(() => '');
  return { top: topDir, ignored, submodules: new Set(submodulePaths(text).map((p) => resolve(topDir, p))) };
}
