import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GtestStream, type CaseEnd } from './gtest-stream.js';

// Real output of a whole GoogleTest binary (test/fixtures/gtest/capture.sh and ctest/capture.sh).
const all = readFileSync(new URL('../test/fixtures/gtest/all.txt', import.meta.url), 'utf8');
const verbose = readFileSync(new URL('../test/fixtures/ctest/verbose.txt', import.meta.url), 'utf8');
const entry7 = verbose
  .split('\n')
  .filter((l) => l.startsWith('7: '))
  .map((l) => l.slice(3));

function feed(lines: string[]): { stream: GtestStream; ends: CaseEnd[] } {
  const stream = new GtestStream(0);
  const ends: CaseEnd[] = [];
  lines.forEach((line, i) => {
    const end = stream.line(line, i + 1);
    if (end) ends.push(end);
  });
  return { stream, ends };
}

describe('GtestStream', () => {
  it('reports each case once as its line arrives, not again from the summary', () => {
    const { ends, stream } = feed(entry7);
    expect(ends.map((e) => [e.name, e.status])).toEqual([
      ['Whole.One', 'passed'],
      ['Whole.Prints', 'passed'],
      ['Whole.Fails', 'failed'],
      ['Whole.Skips', 'skipped'],
      ['Vals/WParam.Odd/0', 'passed'],
      ['Vals/WParam.Odd/1', 'failed'],
    ]);
    expect(stream.current).toBeUndefined();
    expect(stream.seen).toBe(true);
  });

  it("keeps a failing case's transcript from its RUN line to its result, output without a newline included", () => {
    const { ends } = feed(entry7);
    expect(ends[2]!.transcript).toBe(
      '[ RUN      ] Whole.Fails\n/src/whole.cpp:9: Failure\nExpected equality of these values:\n  1\n  2\nboom\n[  FAILED  ] Whole.Fails (0 ms)\n',
    );
    expect(ends[1]!.transcript).toBe(
      '[ RUN      ] Whole.Prints\nno newline\n[       OK ] Whole.Prints (0 ms)\n',
    );
    expect(ends[5]!.transcript).toMatch(
      /\[ {2}FAILED {2}\] Vals\/WParam\.Odd\/1, where GetParam\(\) = 4 \(0 ms\)\n$/,
    );
  });

  it('knows the case that started and never ended, and since when', () => {
    const cut = all.split('\n');
    const at = cut.findIndex((l) => l.startsWith('[ RUN      ] Cases.TwoFailures'));
    const { stream, ends } = feed(cut.slice(0, at + 2));
    expect(stream.current).toMatchObject({ name: 'Cases.TwoFailures', since: at + 1 });
    expect(ends.map((e) => e.name)).toEqual(['Cases.Passes']);
    expect(stream.idleSince).toBe(at);
  });

  it('sees no transcript in the output of a program that is not a GoogleTest one', () => {
    const { stream, ends } = feed(['1..3', 'ok 1 - [  FAILED  ] is just text (1 ms)', 'done']);
    expect(stream.seen).toBe(false);
    expect(ends).toEqual([]);
  });
});
