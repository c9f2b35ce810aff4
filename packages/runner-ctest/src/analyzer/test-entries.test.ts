import { describe, expect, it } from 'vitest';
import { caseName } from './scope.js';
import { entryOf, TestEntries } from './test-entries.js';

describe('the CTest entry and case of a test result', () => {
  it('takes the entry the runner recorded, whatever :: its name holds', () => {
    expect(
      entryOf({
        id: 'yaml-cpp::test::NodeTest.Simple',
        details: { entry: 'yaml-cpp::test', gtest: 'NodeTest.Simple' },
      }),
    ).toEqual({ entry: 'yaml-cpp::test', name: 'NodeTest.Simple' });
    // a crash before the first case: the entry is the test
    expect(entryOf({ id: 'yaml-cpp::test', details: { entry: 'yaml-cpp::test' } })).toEqual({
      entry: 'yaml-cpp::test',
      name: 'yaml-cpp::test',
    });
    // a Unity test of an entry with :: in its name
    expect(entryOf({ id: 'unit::math::test_add', details: { entry: 'unit::math' } })).toEqual({
      entry: 'unit::math',
      name: 'test_add',
    });
  });

  it('takes an entry without recorded details as one test, and a discovered case by its GoogleTest name', () => {
    expect(entryOf({ id: 'tools::check' })).toEqual({ entry: 'tools::check', name: 'tools::check' });
    expect(entryOf({ id: 'Typed.IsSmall<int>', details: { gtest: 'Typed/0.IsSmall' } })).toEqual({
      entry: 'Typed.IsSmall<int>',
      name: 'Typed/0.IsSmall',
    });
  });

  it('remembers the runs it read, and guesses an unseen id at its last :: only', () => {
    const entries = new TestEntries();
    entries.record({ tests: [{ id: 'lib::all', status: 'crashed', details: { entry: 'lib::all' } }] });
    expect(entries.of('lib::all')).toEqual({ entry: 'lib::all', name: 'lib::all' });
    expect(entries.of('lib::test::Suite.Case')).toEqual({ entry: 'lib::test', name: 'Suite.Case' });
    expect(entries.of('plain')).toEqual({ entry: 'plain', name: 'plain' });
  });

  it('names a case as its source does: no instantiation prefix, type index or parameter index', () => {
    const entries = new TestEntries();
    entries.record({
      tests: [
        {
          id: 'lib::test::Vals/WParam.IsOdd/1',
          status: 'failed',
          details: { entry: 'lib::test', gtest: 'Vals/WParam.IsOdd/1' },
        },
        {
          id: 'lib::test::WTyped/1.HasSize',
          status: 'failed',
          details: { entry: 'lib::test', gtest: 'WTyped/1.HasSize' },
        },
        { id: 'Pre/TP/0.Works', status: 'failed', details: { gtest: 'Pre/TP/0.Works' } },
        { id: 'Typed.IsSmall<int>', status: 'passed' },
      ],
    });
    expect(caseName('lib::test::Vals/WParam.IsOdd/1', entries)).toEqual({
      entry: 'lib::test',
      name: 'WParam.IsOdd',
    });
    expect(caseName('lib::test::WTyped/1.HasSize', entries)).toEqual({
      entry: 'lib::test',
      name: 'WTyped.HasSize',
    });
    expect(caseName('Pre/TP/0.Works', entries)).toEqual({ entry: 'Pre/TP/0.Works', name: 'TP.Works' });
    expect(caseName('Typed.IsSmall<int>', entries)).toEqual({
      entry: 'Typed.IsSmall<int>',
      name: 'Typed.IsSmall',
    });
  });
});
