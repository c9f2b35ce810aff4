import { describe, expect, it } from 'vitest';
import type { RunResult, TestResult } from '../api/contracts/run-result.js';
import { expectedNow, familiesOf, familyOf, familySelection, renamedCases } from './renamed-cases.js';

const test = (id: string, status: TestResult['status'] = 'passed'): TestResult => ({
  id,
  name: id,
  file: 'tests/test_calc.py',
  status,
  durationMs: 1,
});
const run = (...tests: TestResult[]): RunResult => ({
  status: 'passed',
  tests,
  diagnostics: [],
  exitCode: 0,
  command: 'pytest',
  durationMs: 1,
  outputTail: '',
  selected: true,
});

describe('familyOf', () => {
  it.each([
    ['tests/test_calc.py::test_add[2-3-6]', 'tests/test_calc.py::test_add'],
    ['tests/test_calc.py::TestCalc::test_add[a]', 'tests/test_calc.py::TestCalc::test_add'],
    ['tests/test_calc.py::test_p[x[y]-x[y]]', 'tests/test_calc.py::test_p'],
    ['tests/[odd]/test_a.py::test_x[1]', 'tests/[odd]/test_a.py::test_x'],
    ['test_x[1]', 'test_x'],
    ['Rows/Mul.Multiplies/(2, 3, 7)', 'Rows/Mul.Multiplies'],
    ['Paths/Parse.Reads/"a/b"', 'Paths/Parse.Reads'],
    ['Factors/Factor.KeepsZero/3', 'Factors/Factor.KeepsZero'],
  ])('%s is a case of %s', (id, family) => expect(familyOf(id)).toBe(family));

  it.each([
    'tests/test_calc.py::test_add',
    'tests/[odd]/test_a.py::test_x',
    'Calc.Adds',
    'Typed/0.Case',
    'calc_all::Factors/Factor.KeepsZero/1',
    'src/a.test.ts::adds 1 + 2',
    '[1]',
  ])('%s names no case', (id) => expect(familyOf(id)).toBeUndefined());
});

describe('renamed cases', () => {
  const initial = [test('t.py::test_add[1-1-2]'), test('t.py::test_add[2-3-6]', 'failed')];
  const families = (ids: string[], from = initial) => familiesOf(ids, from);

  it('maps a vanished case to the new case of its family, and runs every case of the family', () => {
    const after = run(test('t.py::test_add[1-1-2]'), test('t.py::test_add[2-3-5]'), test('t.py::other'));
    const { renamed, cases } = renamedCases(families(['t.py::test_add[2-3-6]']), after, initial);
    expect(renamed).toEqual({ 't.py::test_add[2-3-6]': ['t.py::test_add[2-3-5]'] });
    expect(cases.map((c) => c.id)).toEqual(['t.py::test_add[1-1-2]', 't.py::test_add[2-3-5]']);
  });

  it('maps a deleted row to nothing: the cases left are all old ones', () => {
    const { renamed } = renamedCases(
      families(['t.py::test_add[2-3-6]']),
      run(test('t.py::test_add[1-1-2]')),
      initial,
    );
    expect(renamed).toEqual({ 't.py::test_add[2-3-6]': [] });
  });

  it('asks for a vanished case by its family, once', () => {
    const both = [...initial, test('t.py::test_add[4-4-9]', 'failed')];
    expect(
      familySelection(
        ['t.py::test_add[2-3-6]', 't.py::test_add[4-4-9]', 't.py::other'],
        families(['t.py::test_add[2-3-6]', 't.py::test_add[4-4-9]'], both),
      ),
    ).toEqual(['t.py::test_add', 't.py::other']);
  });

  it('knows the cases of a test.each by their line, and asks for the whole suite to run them', () => {
    const at = (id: string, line: number, status: TestResult['status'] = 'passed'): TestResult => ({
      ...test(id, status),
      file: 'm.test.js',
      line,
    });
    const each = [
      at('m.test.js::adds 1 + 1 = 2', 6),
      at('m.test.js::adds 2 + 3 = 6', 6, 'failed'),
      at('m.test.js::top', 9),
    ];
    const found = families(['m.test.js::adds 2 + 3 = 6'], each);
    expect(familySelection(['m.test.js::adds 2 + 3 = 6'], found)).toBeUndefined();
    const after = run(
      at('m.test.js::adds 1 + 1 = 2', 6),
      at('m.test.js::adds 2 + 3 = 5', 6),
      at('m.test.js::top', 9),
    );
    expect(renamedCases(found, after, each).renamed).toEqual({
      'm.test.js::adds 2 + 3 = 6': ['m.test.js::adds 2 + 3 = 5'],
    });
    // a test alone at its line is no family: renaming it is not correcting a row
    expect(families(['m.test.js::top'], each).size).toBe(0);
  });

  it('expects the new cases of a kept heal in a whole run, and the old ids again once it is undone', () => {
    const ids = ['t.py::test_add[1-1-2]', 't.py::test_add[2-3-6]'];
    const heal = { renamed: { 't.py::test_add[2-3-6]': ['t.py::test_add[2-3-5]'] } };
    expect(expectedNow(ids, [heal])).toEqual(['t.py::test_add[1-1-2]', 't.py::test_add[2-3-5]']);
    expect(expectedNow(ids, [])).toEqual(ids);
  });
});
