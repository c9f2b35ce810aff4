import { reserve, restock } from '../src/inventory';

// Each suite declares the helpers its tests call, under the same name: a test calls its own.
describe('restock', () => {
  function stocked(count: number): number {
    return restock(count, 5);
  }

  it('adds the amount', () => {
    expect(stocked(10)).toBe(15);
  });
});

describe('reserve', () => {
  function stocked(count: number): number {
    return reserve(count, 5);
  }

  it('takes the amount', () => {
    expect(stocked(10)).toBe(5);
  });
});

describe('shelf', () => {
  class Shelf {
    constructor(private readonly count: number) {}

    take(amount: number): number {
      return reserve(this.count, amount);
    }
  }

  it('gives what is left', () => {
    const shelf = new Shelf(10);
    expect(shelf.take(4)).toBe(6);
  });
});
