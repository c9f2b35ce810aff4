import { describe, expect, it } from 'vitest';
import type { ScopeInput } from '../api/contracts/failure.js';
import type { Analyzer } from '../api/plugin.js';
import { isTestFile } from './test-files.js';

const scope: ScopeInput = {
  entries: [
    { file: 'checks/check_cart.py', role: 'test', reasons: ['the failing test'] },
    { file: './checks/support.py', role: 'fixture', reasons: ['fixture "cart"'] },
    { file: 'tests/test_x.py', role: 'source', reasons: ['frame 2 of the traceback'] },
    { file: 'src/cart.py', role: 'source', reasons: ['called by check_total'] },
  ],
};

const analyzer = (isTest?: (file: string) => boolean): Analyzer => ({
  name: 'analyzer',
  apiVersion: 1,
  analyze: () => Promise.resolve([]),
  scope: () => Promise.resolve({ entries: [] }),
  ...(isTest ? { isTestFile: isTest } : {}),
});

describe('isTestFile (engine)', () => {
  it("asks the analyzer's isTestFile first, whatever the scope says", () => {
    const byName = analyzer((file) => file.startsWith('tests/'));
    expect(isTestFile('tests/test_x.py', byName, scope)).toBe(true);
    expect(isTestFile('checks/check_cart.py', byName, scope)).toBe(false);
  });

  it('without one, reads the roles the analyzer gave in its scope, not a file-name pattern', () => {
    const plain = analyzer();
    expect(isTestFile('checks/check_cart.py', plain, scope)).toBe(true);
    expect(isTestFile('checks/support.py', plain, scope)).toBe(true);
    expect(isTestFile('src/cart.py', plain, scope)).toBe(false);
    // a name every language would call a test is still not one when the analyzer did not say so
    expect(isTestFile('tests/test_x.py', plain, scope)).toBe(false);
    expect(isTestFile('foo-test.cpp', plain, scope)).toBe(false);
  });

  it('matches paths however they are spelled, and says no without an analyzer or a scope', () => {
    expect(isTestFile('./checks/check_cart.py', undefined, scope)).toBe(true);
    expect(isTestFile('checks//check_cart.py', undefined, scope)).toBe(true);
    expect(isTestFile('checks/check_cart.py', undefined, undefined)).toBe(false);
    expect(isTestFile('../checks/check_cart.py', undefined, scope)).toBe(false);
  });
});
