import type { PyExpr } from '../plan/case-types.js';

const isExpr = (v: unknown): v is PyExpr =>
  v !== null && typeof v === 'object' && typeof (v as PyExpr).$py === 'string' && Object.keys(v).length === 1;

/** A Python string literal (JSON's escapes are Python's). */
export function pyString(s: string): string {
  return JSON.stringify(s);
}

/** A JSON-like value as Python source; `{ $py: 'user["id"]' }` is written as the expression itself. */
export function pyValue(value: unknown, indent = ''): string {
  if (isExpr(value)) return value.$py;
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'number') return Number.isFinite(value) ? JSON.stringify(value) : 'None';
  if (typeof value === 'string') return pyString(value);
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    const inner = value.map((v) => pyValue(v, `${indent}    `));
    const flat = `[${inner.join(', ')}]`;
    return flat.length <= 80 && !flat.includes('\n')
      ? flat
      : `[\n${inner.map((v) => `${indent}    ${v},`).join('\n')}\n${indent}]`;
  }
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>);
    if (entries.length === 0) return '{}';
    const inner = entries.map(([k, v]) => `${pyString(k)}: ${pyValue(v, `${indent}    `)}`);
    const flat = `{${inner.join(', ')}}`;
    return flat.length <= 80 && !flat.includes('\n')
      ? flat
      : `{\n${inner.map((v) => `${indent}    ${v},`).join('\n')}\n${indent}}`;
  }
  return 'None';
}

/** A docstring line: no triple quotes or backslashes to break it. */
export function docLine(text: string): string {
  return text.replace(/\\/g, '/').replace(/"""/g, "'''").replace(/\s+/g, ' ').trim();
}
