import { FixerTester } from '@suture/core/testing';
import { describe, expect, it } from 'vitest';
import regexFixer from './index.mjs';

const names = 'def count_words(text):\n    counter = len(text.split())\n    return countr\n';
const other = 'countr = 0\n';

new FixerTester({ describe, it }).run(
  'suture-fixer-regex',
  () => regexFixer({ rules: [{ pattern: '\\bcountr\\b', replace: 'counter', file: 'app/names.py' }] }),
  [
    {
      name: 'replaces the pattern in the file its rule names',
      project: { 'app/names.py': names, 'app/other.py': other },
      expect: {
        verdict: 'edits',
        files: { 'app/names.py': names.replace('return countr', 'return counter'), 'app/other.py': other },
        message: 'applied 1 configured replacement',
      },
    },
    {
      name: 'leaves files outside the scope alone',
      project: { 'app/names.py': names },
      request: { scope: { entries: [{ file: 'app/other.py', role: 'source', reasons: ['called'] }] } },
      expect: { verdict: 'unfixable', message: 'no configured pattern matches a file in scope' },
    },
  ],
);

describe('suture-fixer-regex options', () => {
  it('needs at least one rule, checked by its own zod schema', () => {
    expect(() => regexFixer({ rules: [] })).toThrow(/rules/);
    expect(() => regexFixer({ rules: [{ pattern: 'a', replace: 'b', flag: 'g' }] })).toThrow(/flag/);
  });
});
