import { describe, expect, it } from 'vitest';
import type { FailureKind, Location } from '../api/contracts/failure.js';
import type { Diagnostic } from '../api/contracts/run-result.js';
import { groupFailures, type FailureCase } from './group-failures.js';

function failing(
  test: string,
  message: string,
  location: Location | undefined,
  extra: { kind?: FailureKind; type?: string; diagnostics?: Diagnostic[] } = {},
): FailureCase {
  return {
    failure: {
      id: '',
      kind: extra.kind ?? 'exception',
      title: message,
      tests: test ? [test] : [],
      ...(location ? { location } : {}),
      evidence: message,
      repairable: true,
      ...(extra.diagnostics ? { diagnostics: extra.diagnostics } : {}),
    },
    ...(extra.type !== undefined ? { type: extra.type } : { type: 'KeyError' }),
    message,
  };
}

const priceOf: Location = { file: 'src/cart.py', line: 12, symbol: 'price_of' };
const total: Location = { file: 'src/cart.py', line: 30, symbol: 'total' };

describe('groupFailures', () => {
  it('makes one group of one cause raised in one function, across tests and parametrised cases', () => {
    const groups = groupFailures([
      failing('tests/test_cart.py::test_total', "KeyError: 'apple'", priceOf),
      failing('tests/test_cart.py::test_price[pear]', "KeyError: 'pear'", { ...priceOf, line: 13 }),
      failing('tests/test_cart.py::test_price[plum]', "KeyError: 'plum'", priceOf),
      failing('tests/test_shop.py::test_checkout', "KeyError: 'fig'", priceOf),
    ]);
    expect(groups).toHaveLength(1);
    expect(groups[0]!.tests).toEqual([
      'tests/test_cart.py::test_total',
      'tests/test_cart.py::test_price[pear]',
      'tests/test_cart.py::test_price[plum]',
      'tests/test_shop.py::test_checkout',
    ]);
    // the first case speaks for the group
    expect(groups[0]!.title).toBe("KeyError: 'apple'");
    expect(groups[0]!.fingerprint).toMatch(/^[0-9a-f]{16}$/);
  });

  it('keeps apart the same exception raised in two functions: two bugs, two groups', () => {
    const groups = groupFailures([
      failing('t::a', "KeyError: 'apple'", priceOf),
      failing('t::b', "KeyError: 'apple'", total),
      failing('t::c', "KeyError: 'pear'", total),
    ]);
    expect(groups.map((g) => g.tests)).toEqual([['t::a'], ['t::b', 't::c']]);
  });

  it('keeps apart different types, kinds and message texts at the same frame', () => {
    const groups = groupFailures([
      failing('t::a', 'boom 1', priceOf, { type: 'ValueError' }),
      failing('t::b', 'boom 2', priceOf, { type: 'TypeError' }),
      failing('t::c', 'boom 3', priceOf, { type: 'ValueError', kind: 'assertion' }),
      failing('t::d', 'bang 4', priceOf, { type: 'ValueError' }),
    ]);
    expect(groups).toHaveLength(4);
  });

  it('keeps assertions made in different tests apart, and merges the cases of one test', () => {
    const inTest = (symbol: string): Location => ({ file: 'tests/test_cart.py', line: 5, symbol });
    const groups = groupFailures([
      failing('t::test_a', 'assert 7 == 6', inTest('test_a'), { kind: 'assertion', type: 'AssertionError' }),
      failing('t::test_b', 'assert 7 == 6', inTest('test_b'), { kind: 'assertion', type: 'AssertionError' }),
      failing('t::test_p[1]', 'assert 3 == 2', inTest('test_p'), {
        kind: 'assertion',
        type: 'AssertionError',
      }),
      failing('t::test_p[2]', 'assert 5 == 4', inTest('test_p'), {
        kind: 'assertion',
        type: 'AssertionError',
      }),
    ]);
    expect(groups.map((g) => g.tests)).toEqual([
      ['t::test_a'],
      ['t::test_b'],
      ['t::test_p[1]', 't::test_p[2]'],
    ]);
  });

  it('lists a test once, gathers the diagnostics of every case, and keeps blocksAll', () => {
    const d1: Diagnostic = { source: 'x', severity: 'error', message: 'a', notes: [], fixIts: [], tests: [] };
    const d2: Diagnostic = { ...d1, message: 'b' };
    const first = failing('', 'cannot import', priceOf, { diagnostics: [d1] });
    const second = failing('t::a', 'cannot import', priceOf, { diagnostics: [d2] });
    second.failure.blocksAll = true;
    const groups = groupFailures([first, second, failing('t::a', 'cannot import', priceOf)]);
    expect(groups).toHaveLength(1);
    expect(groups[0]).toMatchObject({ tests: ['t::a'], diagnostics: [d1, d2], blocksAll: true });
  });

  it('does not change the cases it was given', () => {
    const a = failing('t::a', 'x', priceOf);
    groupFailures([a, failing('t::b', 'x', priceOf)]);
    expect(a.failure.tests).toEqual(['t::a']);
  });

  it('groups failures with no location by their signature alone', () => {
    const groups = groupFailures([failing('', 'undefined reference to `f`', undefined, { kind: 'build' })]);
    expect(groups).toHaveLength(1);
    expect(groups[0]!.location).toBeUndefined();
  });
});
