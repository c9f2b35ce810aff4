import { expect, test } from 'vitest';

test('fails in shared only', () => {
  expect('shared').toBe('unit');
});
