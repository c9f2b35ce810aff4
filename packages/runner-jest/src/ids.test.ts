import { describe, expect, it } from 'vitest';
import { distinctNames, namePattern, parseId, selectedNames, testId } from './ids.js';

describe('Jest test ids', () => {
  it('round-trips a file and full name, with and without a project', () => {
    for (const [file, fullName, project] of [
      ['__tests__/a.test.js', 'math adds', undefined],
      ['__tests__/a.test.js', 'math adds', 'node'],
      // a Next.js route folder, and a name with brackets and the separator in it
      ['app/[id]/page.test.tsx', '[api] renders :: twice', undefined],
      ['app/[id]/page.test.tsx', '[api] renders :: twice', 'jsdom env'],
    ] as const) {
      const id = testId(file, fullName, project);
      expect(parseId(id)).toEqual({ file, fullName, ...(project ? { project } : {}) });
    }
    expect(testId('a.test.js', 'x', 'node')).toBe('[node] a.test.js::x');
  });

  it('reads a bare file as a whole file', () => {
    expect(parseId('__tests__/a.test.js')).toEqual({ file: '__tests__/a.test.js', fullName: '' });
  });

  it('marks the second and later test of one full name in a file, and reads the mark back', () => {
    expect(distinctNames(['a adds', 'a adds', 'b', 'a adds', 'b'])).toEqual([
      'a adds',
      'a adds #2',
      'b',
      'a adds #3',
      'b #2',
    ]);
    // a test of another name added before them changes no mark
    expect(distinctNames(['c', 'a adds', 'a adds'])).toEqual(['c', 'a adds', 'a adds #2']);
    expect(parseId('a.test.js::a adds #3')).toEqual({ file: 'a.test.js', fullName: 'a adds', occurrence: 3 });
    expect(parseId('[node] a.test.js::a adds #2')).toEqual({
      file: 'a.test.js',
      fullName: 'a adds',
      occurrence: 2,
      project: 'node',
    });
    // #1 and #0 are no marks: the first test of a name has none
    expect(parseId('a.test.js::case #1')).toEqual({ file: 'a.test.js', fullName: 'case #1' });
  });

  it('keeps the ids of a file distinct when a test is itself named like a mark', () => {
    const names = distinctNames(['fixes issue', 'fixes issue #2', 'fixes issue']);
    expect(names).toEqual(['fixes issue', 'fixes issue #2', 'fixes issue #3']);
    expect(new Set(names).size).toBe(3);
    // a marked id selects the tests of the name and the test named so: the results tell them apart
    const pattern = new RegExp(namePattern(selectedNames(parseId('a.test.js::fixes issue #2'))));
    expect(['fixes issue', 'fixes issue #2', 'fixes issue #3'].map((n) => pattern.test(n))).toEqual([
      true,
      true,
      false,
    ]);
  });
});
