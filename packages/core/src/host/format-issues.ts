import type { z } from 'zod';

/** `projects[1].runner` from a zod issue path. */
export function keyPath(path: ReadonlyArray<PropertyKey>): string {
  let out = '';
  for (const part of path)
    out += typeof part === 'number' ? `[${part}]` : out ? `.${String(part)}` : String(part);
  return out || '(root)';
}

function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (typeof value === 'object') return 'an object';
  return `${typeof value} ${String(value)}`;
}

function valueAt(root: unknown, path: ReadonlyArray<PropertyKey>): unknown {
  let v = root;
  for (const p of path) v = v && typeof v === 'object' ? (v as Record<PropertyKey, unknown>)[p] : undefined;
  return v;
}

/** One readable line per zod issue: where, what was expected, what was found. */
export function formatIssues(
  error: z.ZodError,
  input: unknown,
  validKeys?: (path: ReadonlyArray<PropertyKey>) => string[] | undefined,
): string[] {
  return error.issues.map((issue) => {
    const where = keyPath(issue.path);
    if (issue.code === 'unrecognized_keys') {
      const keys = issue.keys.map((k) => `"${k}"`).join(', ');
      const valid = validKeys?.(issue.path);
      return `${where}: unknown key ${keys}${valid ? `; valid keys are ${valid.map((k) => `"${k}"`).join(', ')}` : ''}`;
    }
    const found = describeValue(valueAt(input, issue.path));
    if (issue.code === 'invalid_union')
      return `${where}: expected a plugin name or [name, options], found ${found}`;
    return `${where}: ${issue.message} (found ${found})`;
  });
}
