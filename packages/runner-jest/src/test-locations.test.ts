import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ScriptCache } from './analyzer/js-model.js';
import { declaredTests, declaredTimeout, testLines, testTimeouts } from './test-locations.js';

// Jest 30's own locations (--testLocationInResults) for the fixture, captured by
// test/fixtures/locations/capture.sh: the lines found from the source must be the same.
const dir = new URL('../test/fixtures/locations/', import.meta.url);
const report = JSON.parse(readFileSync(new URL('jest-report.json', dir), 'utf8')) as {
  testResults: Array<{
    assertionResults: Array<{ ancestorTitles: string[]; title: string; location: { line: number } }>;
  }>;
};
const lines = (source: string): ReturnType<typeof testLines> =>
  testLines(declaredTests(new ScriptCache().forFile('x.test.js').parseText(source).tree));

describe('test lines from the source', () => {
  it('gives every test the line Jest reports: plain, modifiers, .each tables, templates, loops, nested suites', () => {
    const lineOf = lines(readFileSync(new URL('__tests__/locations.test.js', dir), 'utf8'));
    const results = report.testResults[0]!.assertionResults;
    expect(results).toHaveLength(15);
    for (const a of results)
      expect([a.ancestorTitles, a.title, lineOf(a.ancestorTitles, a.title)]).toEqual([
        a.ancestorTitles,
        a.title,
        a.location.line,
      ]);
  });

  it('prefers a title written as a string over a pattern that also fits', () => {
    const lineOf = lines("describe('s', () => {\n  test(name, () => {});\n  test('exact', () => {});\n});\n");
    expect(lineOf(['s'], 'exact')).toBe(3);
    expect(lineOf(['s'], 'something else')).toBe(2);
  });

  it('gives no line when two declarations on different lines fit equally, or none does', () => {
    const lineOf = lines(
      "test(a, () => {});\ntest(b, () => {});\ntest('same', () => {});\ntest('same', () => {});\n",
    );
    expect(lineOf([], 'dynamic')).toBeUndefined();
    expect(lineOf([], 'same')).toBeUndefined();
    expect(lineOf(['no such suite'], 'x')).toBeUndefined();
  });

  it('reads TypeScript test files too', () => {
    const tree = new ScriptCache()
      .forFile('x.test.ts')
      .parseText(
        "describe('typed', () => {\n  it('works', (): void => {\n    const n: number = 1;\n  });\n});\n",
      ).tree;
    expect(testLines(declaredTests(tree))(['typed'], 'works')).toBe(2);
  });
});

describe('declared timeouts', () => {
  const timeout = (source: string): number | undefined =>
    declaredTimeout(new ScriptCache().forFile('x.test.ts').parseText(source).tree);

  it('takes the longest of test timeouts and jest.setTimeout', () => {
    expect(
      timeout(
        "jest.setTimeout(20_000);\ntest('a', async () => {}, 45000);\nit.each([1])('b %i', () => {}, 1e3);\n",
      ),
    ).toBe(45_000);
  });

  it('ignores numbers that are no timeout of a test', () => {
    expect(
      timeout("test('a', () => setTimeout(done, 90000));\ndescribe('d', () => {}, 70000);\n"),
    ).toBeUndefined();
  });
});

describe("a test's own timeout", () => {
  const timeoutOf = (source: string) =>
    testTimeouts(new ScriptCache().forFile('x.test.ts').parseText(source).tree);

  it("is its third argument, a test.each case's that of its test.each, or else the file's jest.setTimeout", () => {
    const own = timeoutOf(
      "test('a', async () => {}, 4000);\ntest('b', async () => {});\ntest.each([1, 2])('c %i', async () => {}, 2500);\n",
    );
    expect(own([], 'a')).toBe(4000);
    expect(own([], 'b')).toBeUndefined();
    expect(own([], 'c 2')).toBe(2500);
    const fileWide = timeoutOf("jest.setTimeout(9000);\ntest('a', async () => {});\n");
    expect(fileWide([], 'a')).toBe(9000);
  });

  it('is the longest the file declares for a test whose declaration cannot be told', () => {
    const own = timeoutOf("test('same', () => {}, 3000);\ntest('same', () => {});\n");
    expect(own([], 'same')).toBe(3000);
  });
});
