import { describe, expect, it } from 'vitest';
import { LEGITIMATE, WEAKENINGS } from './runs-corpus.mjs';
import { checkTestWeakening } from './readers.js';
import { treeTestModel } from './readers.js';

type Case = [name: string, file: string, before: string, after: string];

const byName = (list: readonly Case[], name: string): Case => {
  const c = list.find((x) => x[0] === name);
  if (!c) throw new Error(`no corpus case named ${name}`);
  return c;
};
const why = (name: string, protectedNames: string[] = ['calc']): string => {
  const [, file, before, after] = byName(WEAKENINGS, name);
  return checkTestWeakening(file, before, after, { protectedNames }).weakening ?? '';
};

describe('the weakening guard reads what the tests run', () => {
  it('reads helpers as units, and a test calling one as checking what it hands it', () => {
    const [, file, before] = byName(WEAKENINGS, 'HumanEval check gutted to assert True');
    const model = treeTestModel(file, before)!;
    expect(model.helpers?.map((h) => [h.name, h.assertions.map((a) => a.text)])).toEqual([
      ['check', ['assert candidate(2, 3) == 5', 'assert candidate(0, 0) == 0']],
    ]);
    expect(model.tests[0]!.assertions).toMatchObject([{ text: 'check(add)', calls: ['check', 'add'] }]);
  });

  it('says which helper lost what', () => {
    expect(why('HumanEval check gutted to assert True')).toContain(
      'in helper check, `assert candidate(2, 3) == 5` became a constant that cannot fail',
    );
    expect(why('HumanEval check gutted to pass')).toContain('removes helper check');
    expect(why('GoogleTest helper returns before its EXPECTs')).toContain(
      'in helper check, `EXPECT_EQ(f(2, 3), 5)` can no longer fail: it comes after `return;`',
    );
    expect(why('conftest helper gutted')).toMatch(
      /^test-weakening edit to tests\/conftest\.py: in helper check/,
    );
  });

  it('sees a computed setattr reach the code under test through the module it is given', () => {
    // no scope names: only the module the object aliases says that `add` can be replaced
    expect(why('setattr of the code under test with a computed name', [])).toContain(
      'which the test calls as add',
    );
    expect(why('monkeypatch.setattr with a computed name on an alias of the module', [])).toContain(
      'which the test calls as add',
    );
    // the file's own namespace holds what it imported
    for (const name of [
      "setattr of the test module's own name with a computed name",
      'globals() assigned by a computed name',
    ])
      expect(why(name, [])).toContain('which the test calls as add');
    // `plus = add`: a patch of `add` replaces what the test calls as `plus`
    expect(why('the code under test patched under the name of a module-level alias', [])).toContain(
      'which the test calls as add',
    );
    // an unrelated module's attributes are no concern of the test
    const [, file, before, after] = byName(LEGITIMATE, 'a setattr of an unrelated module');
    expect(checkTestWeakening(file, before, after).weakening).toBeUndefined();
  });

  it('counts the rows the assertions run over, naming the ones dropped', () => {
    expect(why('module case list loses its failing row')).toContain(
      'drops 1 of the 3 cases test_table runs (`(2, 3, 5)`)',
    );
    expect(why('test.each table emptied')).toContain('drops 2 of the 2 cases adds %i and %i runs');
    expect(why('range-for case array loses its failing row')).toContain(
      'drops 1 of the 2 cases Calc.Table runs (`{2, 3, 5}`)',
    );
  });

  it('folds conditions on comparisons and module constants, and reads aliases of exception types', () => {
    expect(why('assert under if DEBUG, a module constant False')).toContain(
      'it sits in a branch that never runs (`if DEBUG:`)',
    );
    expect(why('an alias of BaseException caught')).toContain(
      'swallows its failure (`except BaseException:`)',
    );
    expect(why('bare except with a trailing comment')).toContain('swallows its failure (`except:`)');
    expect(why('EXPECT in a lambda only cast to void')).toContain('a function that is never called (f)');
  });

  it('reads an assertion through a local variable as the same assertion, not an expectation change', () => {
    for (const name of [
      'the result kept in a local variable',
      'the result kept in a local const',
      'the result kept in a local auto',
    ]) {
      const [, file, before, after] = byName(LEGITIMATE, name);
      expect(checkTestWeakening(file, before, after)).toEqual({ expectationChanged: false, readBy: 'tree' });
    }
  });

  it('reads an assertion through a local variable by the text rules too', () => {
    for (const name of [
      'the result kept in a local variable',
      'the result kept in a local const',
      'the result kept in a local auto',
    ]) {
      const [, file, before, after] = byName(LEGITIMATE, name);
      expect(checkTestWeakening(file, before, after, { reader: 'text' })).toEqual({
        expectationChanged: false,
        readBy: 'text',
      });
    }
  });

  it.each(['the local the assert reads', 'the local const the expect reads', 'the local the EXPECT reads'])(
    'refuses by the text rules too: %s no longer holds the call',
    (what) => {
      const [, file, before, after] = byName(WEAKENINGS, `${what} no longer holds the call`);
      expect(checkTestWeakening(file, before, after, { reader: 'text' }).weakening).toMatch(
        /no longer mentions add/,
      );
    },
  );

  it('still refuses a local variable that no longer holds the call', () => {
    const [, file, before] = byName(LEGITIMATE, 'the result kept in a local variable');
    const after = before.replace('    assert add(2, 3) == 5\n', '    result = 5\n    assert result == 5\n');
    expect(checkTestWeakening(file, before, after).weakening).toMatch(/no longer mentions add/);
  });
});
