import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, join, relative } from 'node:path';
import { originalPositionFor, TraceMap } from '@jridgewell/trace-mapping';

export interface Frame {
  file: string;
  line: number;
  column: number;
  fn?: string;
}

const FOREIGN =
  /(^|\/)node_modules\/|^node:|^internal\/|(^|\/)(jest-circus|jest-runner|jest-runtime|expect|@jest)\//;

/** `at fn (file:line:col)` and `at file:line:col` frames of a V8 stack, in order (innermost first). */
export function parseStack(text: string): Frame[] {
  const frames: Frame[] = [];
  for (const m of text.matchAll(/^\s*at (?:(.+?) \()?(.+?):(\d+):(\d+)\)?$/gm)) {
    frames.push({
      file: m[2]!.replace(/^file:\/\//, ''),
      line: Number(m[3]),
      column: Number(m[4]),
      ...(m[1] ? { fn: m[1] } : {}),
    });
  }
  return frames;
}

const maps = new Map<string, TraceMap | null>();

/** Follows a `.map` next to a built file back to the source, when there is one. */
function mapped(frame: Frame): Frame {
  const mapFile = `${frame.file}.map`;
  if (!maps.has(mapFile))
    maps.set(mapFile, existsSync(mapFile) ? new TraceMap(readFileSync(mapFile, 'utf8'), mapFile) : null);
  const map = maps.get(mapFile);
  if (!map) return frame;
  const pos = originalPositionFor(map, { line: frame.line, column: frame.column - 1 });
  if (!pos.source || pos.line == null) return frame;
  const source = pos.source.replace(/^file:\/\//, '');
  return {
    file: isAbsolute(source) ? source : join(frame.file, '..', source),
    line: pos.line,
    column: (pos.column ?? 0) + 1,
    ...(frame.fn ? { fn: frame.fn } : {}),
  };
}

/** Project frames (relative paths), innermost first, skipping node_modules, Node and Jest internals. */
export function projectFrames(root: string, text: string): Frame[] {
  const out: Frame[] = [];
  for (const raw of parseStack(text)) {
    if (FOREIGN.test(raw.file)) continue;
    const frame = mapped(raw);
    const rel = relative(root, isAbsolute(frame.file) ? frame.file : join(root, frame.file));
    if (rel.startsWith('..') || isAbsolute(rel) || FOREIGN.test(rel)) continue;
    out.push({ ...frame, file: rel.split('\\').join('/') });
  }
  return out;
}
