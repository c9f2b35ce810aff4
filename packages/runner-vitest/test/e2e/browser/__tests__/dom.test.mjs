import { expect, test } from 'vitest';

test('has a document', () => {
  expect(typeof document).toBe('object');
});
