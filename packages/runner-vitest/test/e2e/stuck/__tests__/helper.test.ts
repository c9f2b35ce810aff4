import { expect, it } from 'vitest';
import { settle } from '../src/loop.js';

it('passes first', () => {
  expect(1 + 1).toBe(2);
});

it('settles the counter', () => {
  expect(settle({ count: 1 })).toBe(2);
});
