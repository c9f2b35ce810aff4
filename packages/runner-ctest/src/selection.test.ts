import { describe, expect, it } from 'vitest';
import type { Registry } from './registry.js';
import { exactNames, planSelection } from './selection.js';

const registry: Registry = new Map([
  ['yaml-cpp::test', { command: ['/b/yaml-cpp-tests'] }],
  ['yaml-cpp::source-list', { command: ['cmake', '-P', 'verify.cmake'] }],
  [
    'Nums/Param.IsEven/3',
    { command: ['/b/disc', '--gtest_filter=Nums/Param.IsEven/1'], gtestName: 'Nums/Param.IsEven/1' },
  ],
  ['a', { command: ['/b/a'] }],
  ['a::b', { command: ['/b/ab'] }],
  ['unity', { command: ['/b/unity'] }],
  ['filtered', { command: ['/b/w', '--gtest_filter=W.*'], gtestFilter: 'W.*' }],
]);

describe('planSelection', () => {
  it('finds the entry of a case whatever the entry name holds, the longest name first', () => {
    const plan = planSelection(
      ['yaml-cpp::test::NodeTest.Simple', 'yaml-cpp::test::Typed/0.Case', 'a::b::S/T.C/2', 'a::S.C'],
      registry,
    );
    expect(plan.entries).toEqual([]);
    expect(Object.fromEntries(plan.cases)).toEqual({
      'yaml-cpp::test': ['NodeTest.Simple', 'Typed/0.Case'],
      'a::b': ['S/T.C/2'],
      a: ['S.C'],
    });
    expect(plan.unknown).toEqual([]);
  });

  it('runs an entry whole when it is selected by name, and then not its cases again', () => {
    const plan = planSelection(
      ['yaml-cpp::test', 'yaml-cpp::test::NodeTest.Simple', 'Nums/Param.IsEven/3'],
      registry,
    );
    expect(plan.entries).toEqual(['yaml-cpp::test', 'Nums/Param.IsEven/3']);
    expect(plan.cases.size).toBe(0);
  });

  it('re-runs the entry of a Unity test or of an entry with its own filter, and names unknown ids', () => {
    const plan = planSelection(['unity::test_parse', 'filtered::W.One', 'gone::X.Y', 'nothing'], registry);
    expect(plan.entries).toEqual(['unity', 'filtered']);
    expect(plan.unknown).toEqual(['gone::X.Y', 'nothing']);
  });
});

describe('exactNames', () => {
  it('anchors and escapes every name, so a name matches itself only', () => {
    const re = exactNames(['plain check.v1 [fast]', 'Typed.IsSmall<int>', 'a+b(c)|d']);
    const js = new RegExp(re);
    expect(js.test('plain check.v1 [fast]')).toBe(true);
    expect(js.test('plain checkXv1 [fast]')).toBe(false);
    expect(js.test('Typed.IsSmall<int>')).toBe(true);
    expect(js.test('a+b(c)|d')).toBe(true);
    expect(js.test('d')).toBe(false);
  });

  it('runs every entry of a value-parametrized test asked for by its family, and nothing else by a near name', () => {
    const rows: Registry = new Map([
      ['Rows/Mul.Multiplies/(1, 1, 1)', { command: ['/b/rows'], gtestName: 'Rows/Mul.Multiplies/0' }],
      ['Rows/Mul.Multiplies/(2, 3, 6)', { command: ['/b/rows'], gtestName: 'Rows/Mul.Multiplies/1' }],
      ['Rows/Mul.MultipliesAll/(1, 1, 1)', { command: ['/b/rows'], gtestName: 'Rows/Mul.MultipliesAll/0' }],
    ]);
    const plan = planSelection(['Rows/Mul.Multiplies', 'Rows/Mul.Missing'], rows);
    expect(plan.entries).toEqual(['Rows/Mul.Multiplies/(1, 1, 1)', 'Rows/Mul.Multiplies/(2, 3, 6)']);
    expect(plan.unknown).toEqual(['Rows/Mul.Missing']);
  });
});
