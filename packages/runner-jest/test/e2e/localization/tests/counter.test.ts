import { Counter } from '../src/counter';

describe('Counter', () => {
  let counter: Counter;

  beforeEach(() => {
    counter = new Counter();
  });

  test('counts what was added', () => {
    counter.add('a');
    counter.add('a');
    expect(counter.count('a')).toBe(2);
  });

  test('counts nothing for what was never added', () => {
    expect(counter.count('b')).toBe(0);
  });
});
