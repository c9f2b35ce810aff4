import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** The source of one top-level test function, its decorators included; undefined when not found. */
export function functionSource(text: string, name: string): string | undefined {
  const lines = text.split('\n');
  const def = lines.findIndex((l) => l.startsWith(`def ${name}(`) || l.startsWith(`async def ${name}(`));
  if (def < 0) return undefined;
  let start = def;
  while (start > 0 && lines[start - 1]!.startsWith('@')) start--;
  let end = def + 1;
  while (end < lines.length && (lines[end]!.trim() === '' || /^\s/.test(lines[end]!))) end++;
  while (end > def + 1 && lines[end - 1]!.trim() === '') end--;
  return lines.slice(start, end).join('\n');
}

/** The test function a pytest node id names (`test_x.py::test_y[param]`), read from the project. */
export async function testSource(root: string, nodeid: string): Promise<{ file: string; source?: string }> {
  const [file, rest] = nodeid.split('::');
  const name = (rest ?? '').replace(/\[.*$/, '');
  try {
    const text = await readFile(join(root, file!), 'utf8');
    const source = functionSource(text, name);
    return { file: file!, ...(source ? { source } : {}) };
  } catch {
    return { file: file! };
  }
}
