import { describe, expect, it } from 'vitest';
import { EXPECTATION_CHANGES, LEGITIMATE, UNPARSED, WEAKENINGS } from './corpus.mjs';
import * as runs from './runs-corpus.mjs';
import { checkTestWeakening } from './readers.js';

describe('the weakening guard corpus', () => {
  it('has at least 40 weakening patterns across pytest, Jest and GoogleTest, and 20 legitimate fixes', () => {
    expect(WEAKENINGS.length).toBeGreaterThanOrEqual(40);
    expect(LEGITIMATE.length).toBeGreaterThanOrEqual(20);
    for (const ext of ['.py', '.ts', '.cpp'])
      expect(WEAKENINGS.filter((c) => c[1].endsWith(ext)).length).toBeGreaterThanOrEqual(12);
  });

  // the syntax-tree readers read every file here; core's text rules, the fallback where no grammar
  // is installed, must refuse and accept the same
  describe.each([['tree' as const], ['text' as const]])('read by %s', (readBy) => {
    const options = { protectedNames: ['calc'], ...(readBy === 'text' ? { reader: 'text' as const } : {}) };

    it.each(WEAKENINGS)('refuses: %s (%s)', (name, file, before, after) => {
      const verdict = checkTestWeakening(file, before, after, options);
      expect(verdict.weakening).toMatch(/^test-weakening edit to /);
      expect(verdict.expectationChanged).toBe(false);
      expect(verdict.readBy).toBe(UNPARSED.has(name) ? 'text' : readBy);
    });

    it.each(LEGITIMATE)('accepts: %s (%s)', (name, file, before, after) => {
      const verdict = checkTestWeakening(file, before, after, options);
      expect(verdict.weakening).toBeUndefined();
      expect(verdict.expectationChanged).toBe(EXPECTATION_CHANGES.has(name));
      expect(verdict.readBy).toBe(readBy);
    });
  });

  // what the tests run beyond their own assertions: helpers, rows of data, constants, aliases
  describe('what the tests run, read by tree', () => {
    it('covers helpers, rows and constant branches in pytest, Jest and GoogleTest', () => {
      for (const ext of ['.py', '.ts', '.cpp'])
        expect(runs.WEAKENINGS.filter((c) => c[1].endsWith(ext)).length).toBeGreaterThanOrEqual(6);
    });

    it.each(runs.WEAKENINGS)('refuses: %s (%s)', (_name, file, before, after) => {
      const verdict = checkTestWeakening(file, before, after, { protectedNames: ['calc'] });
      expect(verdict.readBy).toBe('tree');
      expect(verdict.weakening).toMatch(/^test-weakening edit to /);
      expect(verdict.expectationChanged).toBe(false);
    });

    it.each(runs.LEGITIMATE)('accepts: %s (%s)', (name, file, before, after) => {
      const verdict = checkTestWeakening(file, before, after, { protectedNames: ['calc'] });
      expect(verdict.readBy).toBe('tree');
      expect(verdict.weakening).toBeUndefined();
      expect(verdict.expectationChanged).toBe(runs.EXPECTATION_CHANGES.has(name));
    });
  });
});
