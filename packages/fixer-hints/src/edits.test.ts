import { describe, expect, it } from 'vitest';
import { diffEdit } from './edits.js';

/** The text an edit makes of `before`, applied as the engine applies it (one exact occurrence). */
function apply(before: string, after: string): string {
  const edit = diffEdit('f', before, after)!;
  if ('content' in edit && edit.content !== undefined) return edit.content;
  const { search, replace } = edit as { search: string; replace: string };
  expect(before.split(search)).toHaveLength(2);
  return before.replace(search, () => replace);
}

describe('diffEdit', () => {
  it('turns the text into exactly the text asked for: lines changed, added and deleted outright', () => {
    const before = 'a\nb\nc\nd\n';
    for (const after of ['a\nB\nc\nd\n', 'a\nb\nx\nc\nd\n', 'a\nc\nd\n', 'a\nb\nc\n', 'b\nc\nd\n', 'a\nd\n'])
      expect(apply(before, after)).toBe(after);
    expect(apply('x\n\ty\n\ty\n\tz\n', 'x\n\ty\n\tz\n')).toBe('x\n\ty\n\tz\n');
  });
});
