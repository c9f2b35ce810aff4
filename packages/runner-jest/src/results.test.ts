import { describe, expect, it } from 'vitest';
import { foldResults, readJestJson } from './results.js';

const suite = (over: object = {}) => ({
  name: '/p/__tests__/a.test.js',
  status: 'passed',
  message: '',
  assertionResults: [
    {
      ancestorTitles: [],
      fullName: 'adds',
      title: 'adds',
      status: 'passed',
      location: null,
      failureMessages: [],
    },
  ],
  ...over,
});

describe('readJestJson', () => {
  it('reads the report Jest writes', () => {
    const r = readJestJson(JSON.stringify({ success: true, numTotalTests: 1, testResults: [suite()] }));
    if (!('json' in r)) throw new Error(r.error);
    expect(foldResults(r.json, '/p').tests).toEqual([
      expect.objectContaining({ id: '__tests__/a.test.js::adds', status: 'passed' }),
    ]);
  });

  it('treats a suite with no assertionResults key as one that ran nothing', () => {
    const r = readJestJson(
      JSON.stringify({
        testResults: [
          { name: '/p/__tests__/a.test.js', status: 'failed', message: 'Test suite failed to run' },
        ],
      }),
    );
    if (!('json' in r)) throw new Error(r.error);
    expect(foldResults(r.json, '/p').diagnostics).toHaveLength(1);
  });

  it.each([
    ['text that is not JSON', '{"testResults": [', /not valid JSON/],
    ['an empty object', '{}', /does not have the shape Jest writes: testResults: /],
    ['null', 'null', /does not have the shape Jest writes: \(root\)/],
    [
      'a test without its name',
      JSON.stringify({ testResults: [suite({ assertionResults: [{ title: 'x', status: 'passed' }] })] }),
      /testResults\.0\.assertionResults\.0\.fullName/,
    ],
  ])('says what is wrong with %s instead of throwing', (_name, raw, message) => {
    const r = readJestJson(raw);
    expect('error' in r && r.error).toMatch(message);
  });
});
