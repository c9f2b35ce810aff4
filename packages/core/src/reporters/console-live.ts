import type { Palette, Paint } from './console-colour.js';

export interface LiveStream {
  write(chunk: string): unknown;
  /** Terminal width; lines are cut to it, since a wrapped line would throw the redraw off. */
  columns?: number;
}

/** A piece of a status line and its colour: lines are cut by visible width before colouring. */
export type Segment = [text: string, paint?: Paint];

/** Joins segments into at most `width` visible characters, colouring each piece that is kept. */
export function fit(segments: readonly Segment[], width: number): string {
  let left = width;
  let out = '';
  for (const [text, paint] of segments) {
    if (left <= 0) break;
    const kept = text.length > left ? `${text.slice(0, Math.max(0, left - 1))}…` : text;
    left -= kept.length;
    out += paint ? paint(kept) : kept;
  }
  return out;
}

/**
 * A block of status lines kept at the bottom of a terminal: every draw erases the previous block
 * (cursor up, clear line) and writes the new one, so printed lines scroll above it.
 */
export class LiveRegion {
  private drawn = 0;

  constructor(private readonly stream: LiveStream) {}

  get width(): number {
    // a pseudo-terminal that was never sized reports 0 columns
    return Math.max(20, (this.stream.columns || 100) - 1);
  }

  private erase(): string {
    if (this.drawn === 0) return '';
    return `\r\x1b[2K${'\x1b[1A\x1b[2K'.repeat(this.drawn - 1)}`;
  }

  draw(lines: readonly Segment[][]): void {
    if (lines.length === 0 && this.drawn === 0) return;
    const text = lines.map((l) => fit(l, this.width)).join('\n');
    this.stream.write(`${this.erase() || (lines.length ? '\r\x1b[2K' : '')}${text}`);
    this.drawn = lines.length;
  }

  /** Removes the block, leaving the cursor at the start of an empty line. */
  clear(): void {
    if (this.drawn) this.stream.write(this.erase());
    this.drawn = 0;
  }
}

/** `[██████░░░░░░]`: done of expected in `width` cells. */
export function bar(done: number, expected: number, width: number, p: Palette): Segment[] {
  const filled = Math.min(width, Math.round((done / Math.max(expected, 1)) * width));
  return [['['], ['█'.repeat(filled), p.green], ['░'.repeat(width - filled), p.dim], [']']];
}
