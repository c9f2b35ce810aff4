import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { shellQuote } from '../text/shell-quote.js';
import { toPosix } from './paths.js';

/** jsdiff, required by the first diff: a run that heals nothing never loads it. */
function twoFilesPatch(): typeof import('diff').createTwoFilesPatch {
  return (createRequire(import.meta.url)('diff') as typeof import('diff')).createTwoFilesPatch;
}

/**
 * A git-style unified diff of one file, accepted by `git apply` (a/ b/ prefixes, /dev/null for
 * created or deleted files, "\ No newline at end of file" markers).
 */
export function fileDiff(file: string, before: string | undefined, after: string | undefined): string {
  if (before === after) return '';
  const oldName = before === undefined ? '/dev/null' : `a/${file}`;
  const newName = after === undefined ? '/dev/null' : `b/${file}`;
  const body = twoFilesPatch()(oldName, newName, before ?? '', after ?? '', undefined, undefined, {
    context: 3,
  });
  // jsdiff starts with an "Index:"/"====" preamble; git wants "diff --git" headers instead.
  const lines = body.split('\n');
  const start = lines.findIndex((l) => l.startsWith('--- '));
  let header = `diff --git a/${file} b/${file}\n`;
  if (before === undefined) header += 'new file mode 100644\n';
  if (after === undefined) header += 'deleted file mode 100644\n';
  return header + lines.slice(start).join('\n');
}

/** The folder holding `.git` (a folder, or a file for worktrees and submodules) at or above `dir`. */
function gitTopLevel(dir: string): string | undefined {
  for (let d = resolve(dir); ; d = dirname(d)) {
    if (existsSync(join(d, '.git'))) return d;
    if (dirname(d) === d) return undefined;
  }
}

const rel = (from: string, to: string): string => toPosix(relative(from, to)) || '.';

/**
 * A command that applies `patchFile` (paths relative to `root`) when typed in `cwd`. `git apply`
 * takes patch paths from the top of the working tree and, run in a subfolder, silently skips
 * the files outside it, so a root below the top level needs `-C <top> --directory=<root>`.
 */
export function gitApplyCommand(root: string, patchFile: string, cwd = process.cwd()): string {
  const top = gitTopLevel(root);
  const base = top ?? root;
  const where = resolve(cwd) === base ? '' : `-C ${shellQuote(rel(cwd, base))} `;
  const directory = top && top !== resolve(root) ? `--directory=${shellQuote(rel(top, root))} ` : '';
  return `git ${where}apply ${directory}${shellQuote(rel(base, patchFile))}`;
}
