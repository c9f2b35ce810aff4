import { describe, expect, it } from 'vitest';
import { parseId, testId } from './ids.js';

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
});
