import type { Edit, FixIt } from '@suture/core';

/**
 * A search/replace edit for changing `line` (1-based) of `text` into `replacement`: the search
 * text grows by whole lines around it until it occurs exactly once in the file.
 */
export function lineEdit(file: string, text: string, line: number, replacement: string): Edit | undefined {
  const lines = text.split('\n');
  if (line < 1 || line > lines.length) return undefined;
  for (let radius = 0; radius < 20; radius++) {
    const start = Math.max(0, line - 1 - radius);
    const end = Math.min(lines.length, line + radius);
    const search = lines.slice(start, end).join('\n');
    if (text.indexOf(search) === text.lastIndexOf(search)) {
      const replaced = [...lines.slice(start, line - 1), replacement, ...lines.slice(line, end)].join('\n');
      return { file, search, replace: replaced };
    }
  }
  return undefined;
}

/** The offset in the text of `lines` of a 1-based line and column. */
export function offsetOf(lines: readonly string[], line: number, column: number): number {
  let offset = 0;
  for (let i = 0; i < line - 1; i++) offset += lines[i]!.length + 1;
  return offset + column - 1;
}

/** Applies fix-its (1-based, end column exclusive) to a text, bottom-up so offsets stay valid. */
export function applyFixIts(text: string, fixIts: readonly FixIt[]): string {
  const lines = text.split('\n');
  const spans = fixIts
    .map((f) => ({
      start: offsetOf(lines, f.line, f.column),
      end: offsetOf(lines, f.endLine, f.endColumn),
      text: f.replacement,
    }))
    .sort((a, b) => b.start - a.start);
  let out = text;
  for (const s of spans) out = out.slice(0, s.start) + s.text + out.slice(s.end);
  return out;
}

/** A minimal unique search/replace edit turning `before` into `after` (whole changed lines, with context). */
export function diffEdit(file: string, before: string, after: string): Edit | undefined {
  if (before === after) return undefined;
  const a = before.split('\n');
  const b = after.split('\n');
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (
    tail < a.length - head &&
    tail < b.length - head &&
    a[a.length - 1 - tail] === b[b.length - 1 - tail]
  )
    tail++;
  for (let ctx = 0; ctx < 20; ctx++) {
    const start = Math.max(0, head - ctx);
    const endA = Math.min(a.length, a.length - tail + ctx);
    const endB = b.length - (a.length - endA);
    let search = a.slice(start, endA).join('\n');
    let replace = b.slice(start, endB).join('\n');
    // lines deleted outright: their line break goes with them, or a blank line would stay
    if (endB === start && endA > start) {
      if (endA < a.length) search += '\n';
      else if (start > 0) search = `\n${search}`;
      replace = '';
    }
    if (search.length > 0 && before.indexOf(search) === before.lastIndexOf(search)) {
      return { file, search, replace };
    }
  }
  return { file, content: after };
}
