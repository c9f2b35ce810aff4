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

  describe('by suspect', () => {
    const inTest = (symbol: string): Location => ({ file: 'tests/test_dates.py', line: 5, symbol });
    const parseDate = { file: 'src/dates.py', symbol: 'parse_date' };
    const formatDate = { file: 'src/dates.py', symbol: 'format_date' };
    const asserting = (
      test: string,
      message: string,
      suspect: FailureCase['suspect'],
      type = 'AssertionError',
    ) => ({
      ...failing(test, message, inTest(test.split('::')[1]!.replace(/\[.*$/, '')), {
        kind: 'assertion',
        type,
      }),
      suspect,
    });

    it('makes one group of assertions in several tests and cases that call the same function, whatever the values and matchers', () => {
      const groups = groupFailures([
        asserting('t::test_a', "assert '2020-01-02' == '2020-02-01'", [parseDate]),
        asserting('t::test_b', 'assert [1, 2] == [2, 1, 3]', [parseDate], 'toEqual'),
        asserting('t::test_p[1]', 'assert {"a": (1, 2)} == None', [parseDate]),
        asserting('t::test_p[2]', 'assert 5 == 4', [parseDate]),
      ]);
      expect(groups).toHaveLength(1);
      expect(groups[0]!.tests).toEqual(['t::test_a', 't::test_b', 't::test_p[1]', 't::test_p[2]']);
      // one request carries how each test failed
      expect(groups[0]!.evidence).toContain('The same cause fails 3 more test(s):');
      expect(groups[0]!.evidence).toContain('- t::test_b: assert [1, 2] == [2, 1, 3]');
      expect(groups[0]!.evidence).toContain('- t::test_p[2]: assert 5 == 4');
    });

    it('keeps two bugs in two functions apart, even when their assertions read alike', () => {
      const groups = groupFailures([
        asserting('t::test_a', 'assert 7 == 6', [parseDate]),
        asserting('t::test_b', 'assert 7 == 6', [formatDate]),
        asserting('t::test_c', 'assert 8 == 6', [parseDate]),
      ]);
      expect(groups.map((g) => g.tests)).toEqual([['t::test_a', 't::test_c'], ['t::test_b']]);
      expect(groups[0]!.fingerprint).not.toBe(groups[1]!.fingerprint);
    });

    it('merges a line that calls two functions only with lines that call the same two', () => {
      const groups = groupFailures([
        asserting('t::test_a', 'assert 1 == 2', [formatDate, parseDate]),
        asserting('t::test_b', 'assert 1 == 2', [parseDate]),
        asserting('t::test_c', 'assert 3 == 2', [parseDate, formatDate]),
      ]);
      expect(groups.map((g) => g.tests)).toEqual([['t::test_a', 't::test_c'], ['t::test_b']]);
    });

    it('keeps different exception types at one suspect apart, and an assertion apart from an exception', () => {
      const raised = (test: string, type: string) => ({
        ...failing(test, `${type}: boom`, { ...parseDate, line: 3 }, { type }),
        suspect: [parseDate],
      });
      const groups = groupFailures([
        raised('t::a', 'KeyError'),
        raised('t::b', 'KeyError'),
        raised('t::c', 'TypeError'),
        asserting('t::d', 'assert 1 == 2', [parseDate]),
      ]);
      expect(groups.map((g) => g.tests)).toEqual([['t::a', 't::b'], ['t::c'], ['t::d']]);
    });

    it('groups by message and frame when no suspect is named, and never uses a suspect for a timeout', () => {
      const groups = groupFailures([
        asserting('t::test_a', 'assert 7 == 6', []),
        asserting('t::test_a', 'assert 7 == 6', undefined),
        { ...failing('t::x', 'ran past 1 s', inTest('test_x'), { kind: 'timeout' }), suspect: [parseDate] },
        { ...failing('t::y', 'ran past 1 s', inTest('test_y'), { kind: 'timeout' }), suspect: [parseDate] },
      ]);
      expect(groups.map((g) => g.tests)).toEqual([['t::test_a'], ['t::x'], ['t::y']]);
    });

    it('lists at most ten further tests in the evidence, and says how many more', () => {
      const groups = groupFailures(
        Array.from({ length: 14 }, (_, i) => asserting(`t::test_p[${i}]`, `assert ${i} == -1`, [parseDate])),
      );
      expect(groups).toHaveLength(1);
      expect(groups[0]!.evidence.match(/^- t::test_p/gm)).toHaveLength(10);
      expect(groups[0]!.evidence).toContain('- and 3 more');
    });
  });
});
