import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { gtestTranscriptFailures, parseGtestListing, transcriptFailure } from './ctest-output.js';

// Real GoogleTest 1.12 output, captured by test/fixtures/gtest/capture.sh from cases.cpp.
const fixture = (name: string): string =>
  readFileSync(new URL(`../test/fixtures/gtest/${name}`, import.meta.url), 'utf8');

describe('transcriptFailure', () => {
  it('joins every failure block of the test and points at the first one', () => {
    expect(transcriptFailure(fixture('Cases.TwoFailures.txt'))).toEqual({
      file: 'cases.cpp',
      line: 9,
      message:
        'Expected equality of these values:\n  1 + 1\n    Which is: 2\n  3\nprinted by the test\nValue of: false\n  Actual: false\nExpected: true\ncustom message',
    });
  });

  it('reads an uncaught exception, which GoogleTest reports at no line', () => {
    expect(transcriptFailure(fixture('Cases.Throws.txt'))).toEqual({
      message: 'C++ exception with description "boom" thrown in the test body.',
    });
  });

  it('stops at the FAILED line of a value-parametrized test', () => {
    expect(transcriptFailure(fixture('Nums_Param.IsEven_1.txt'))).toEqual({
      file: 'cases.cpp',
      line: 17,
      message: 'Expected equality of these values:\n  GetParam() % 2\n    Which is: 1\n  0',
    });
  });

  it('finds nothing in a passing transcript or in output cut before the failure', () => {
    expect(
      transcriptFailure('[ RUN      ] Cases.Passes\n[       OK ] Cases.Passes (0 ms)\n'),
    ).toBeUndefined();
    expect(transcriptFailure('Running main() from gtest_main.cc\n')).toBeUndefined();
  });
});

describe('gtestTranscriptFailures', () => {
  it("reads each failing test of a whole binary's transcript as transcriptFailure reads it alone", () => {
    const failures = gtestTranscriptFailures(fixture('all.txt'));
    expect([...failures.keys()]).toEqual(['Cases.TwoFailures', 'Cases.Throws', 'Nums/Param.IsEven/1']);
    expect(failures.get('Cases.TwoFailures')).toEqual(transcriptFailure(fixture('Cases.TwoFailures.txt')));
    expect(failures.get('Cases.Throws')).toEqual({
      message: 'C++ exception with description "boom" thrown in the test body.',
    });
    expect(failures.get('Nums/Param.IsEven/1')).toEqual(
      transcriptFailure(fixture('Nums_Param.IsEven_1.txt')),
    );
  });
});

describe('parseGtestListing', () => {
  it('maps every gtest name, parametrized ones by index, to where its TEST is defined', () => {
    const listing = parseGtestListing(fixture('list.json'));
    expect(Object.fromEntries(listing)).toEqual({
      'Cases.Passes': { file: 'cases.cpp', line: 6 },
      'Cases.TwoFailures': { file: 'cases.cpp', line: 8 },
      'Cases.Throws': { file: 'cases.cpp', line: 14 },
      'Nums/Param.IsEven/0': { file: 'cases.cpp', line: 17 },
      'Nums/Param.IsEven/1': { file: 'cases.cpp', line: 17 },
    });
  });
});
