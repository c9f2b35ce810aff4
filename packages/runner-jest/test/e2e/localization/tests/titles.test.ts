// jest.config.js compiles this file with a transform that returns no source map: the lines Jest
// prints for it are the compiled code's, which has no comments, so they are not this file's.
import { discount, tax } from '../src/pricing';

/**
 * Both suites have a test of the same title: only the full name tells them apart.
 */
describe('tax', () => {
  it('applies the rate', () => {
    expect(tax(100, 0.25)).toBe(125);
  });
});

describe('discount', () => {
  it('applies the rate', () => {
    expect(discount(100, 0.25)).toBe(75);
  });
});
