import { describe, expect, it } from 'vitest';

describe.each([{ a: 1 }, { a: 2 }])('with a = $a', ({ a }) => {
  it('doubles (a + a)', () => {
    expect(a + a).toBe(a * 2);
  });

  it('is one', () => {
    expect(a).toBe(1);
  });
});

it('keeps $pecial ^chars* (in) [brackets] | pipes \\ and / slashes?', () => {
  expect('special').toBe('plain');
});

it.each([
  ['x.y', 1],
  ['x*y', 2],
])('case %s', (_, value) => {
  expect(value).toBe(1);
});
