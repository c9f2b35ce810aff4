import { describe, expect, it } from 'vitest';
import { TailBuffer } from './tail-buffer.js';

describe('TailBuffer', () => {
  it('keeps everything while under its limit', () => {
    const tail = new TailBuffer(100);
    tail.push('one\n');
    tail.push('two\n');
    expect(tail.toString()).toBe('one\ntwo\n');
  });

  it('starts a cut output at a line, so no line is kept from its middle', () => {
    const tail = new TailBuffer(40);
    tail.push('TOKEN=AIzajaqW2GIyIACcEaGGIkMuQQIUQky4WCSWgQq\n');
    tail.push('next line\nlast line\n');
    const kept = tail.toString();
    expect(kept).toBe('[... output truncated to the last 40 characters ...]\nnext line\nlast line\n');
    expect(kept).not.toContain('WgQq');
  });

  it('keeps the raw tail of one line longer than the limit', () => {
    const tail = new TailBuffer(8);
    tail.push('abcdefghijklmnop');
    expect(tail.toString()).toBe('[... output truncated to the last 8 characters ...]\nijklmnop');
  });
});
