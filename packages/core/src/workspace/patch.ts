import { createTwoFilesPatch } from 'diff';

/**
 * A git-style unified diff of one file, accepted by `git apply` (a/ b/ prefixes, /dev/null for
 * created or deleted files, "\ No newline at end of file" markers).
 */
export function fileDiff(file: string, before: string | undefined, after: string | undefined): string {
  if (before === after) return '';
  const oldName = before === undefined ? '/dev/null' : `a/${file}`;
  const newName = after === undefined ? '/dev/null' : `b/${file}`;
  const body = createTwoFilesPatch(oldName, newName, before ?? '', after ?? '', undefined, undefined, { context: 3 });
  // jsdiff starts with an "Index:"/"====" preamble; git wants "diff --git" headers instead.
  const lines = body.split('\n');
  const start = lines.findIndex((l) => l.startsWith('--- '));
  let header = `diff --git a/${file} b/${file}\n`;
  if (before === undefined) header += 'new file mode 100644\n';
  if (after === undefined) header += 'deleted file mode 100644\n';
  return header + lines.slice(start).join('\n');
}
