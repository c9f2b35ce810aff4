import { TestPathPatterns } from '@jest/pattern';
import { describe, expect, it } from 'vitest';
import { JestOptionsSchema } from './options.js';
import { planPass } from './plan.js';

const io = { jestBin: '/p/node_modules/jest/bin/jest.js', reporter: '/r.cjs', events: '/e.jsonl' };
const options = JestOptionsSchema.parse({});

describe('the plan of a pass', () => {
  it('rules out the files already run for Jest, whether it matches paths from the rootDir or absolute', () => {
    const plan = planPass('/p', options, io, {
      skipFiles: new Set(['/p/web/__tests__/a.test.js']),
      skipNames: new Set(),
      again: true,
    });
    // Jest's own matcher, with the project's rootDir at the root and in a subfolder
    for (const rootDir of ['/p', '/p/web']) {
      const matches = new TestPathPatterns([plan.excludePaths!]).toExecutor({ rootDir });
      expect(matches.isMatch('/p/web/__tests__/a.test.js')).toBe(false);
      expect(matches.isMatch('/p/web/__tests__/b.test.js')).toBe(true);
      expect(matches.isMatch('/p/other/web/__tests__/a.test.js')).toBe(true);
    }
    expect(plan.argv).toMatchObject({ ci: true, passWithNoTests: true });
  });

  it('runs a selection by path, less the tests that hung and the files that ended', () => {
    const plan = planPass('/p', options, io, {
      selection: [
        { file: 'a.test.js', fullName: 'a (1) + b' },
        { file: 'b.test.js', fullName: 'hangs' },
        { file: 'c.test.js', fullName: 'done' },
      ],
      skipFiles: new Set(['/p/c.test.js']),
      skipNames: new Set(['hangs']),
      again: true,
    });
    expect(plan.files).toEqual(['/p/a.test.js']);
    const names = new RegExp(`${plan.excludeNames}${plan.names}`, 'i');
    expect(names.test('a (1) + b')).toBe(true);
    expect(names.test('hangs')).toBe(false);
    expect(names.test('a (1) + b and more')).toBe(false);
  });

  it('passes the options that have no place on the command line the tests see', () => {
    const plan = planPass(
      '/p',
      JestOptionsSchema.parse({ config: 'cfg/jest.js', runInBand: true, testTimeoutMs: 900, args: ['-i'] }),
      io,
      { skipFiles: new Set(), skipNames: new Set(), again: false },
    );
    expect(plan.args).toEqual(['-i']);
    expect(plan.argv).toEqual({
      ci: true,
      watch: false,
      watchAll: false,
      watchman: false,
      config: '/p/cfg/jest.js',
      runInBand: true,
      testTimeout: 900,
    });
  });
});
