import { describe, expect, it } from 'vitest';
import { coverageCounts, coverageGain, lineRanges, mergeCoverage, uncoveredLines } from './model.js';
import { parseGcovr } from './gcovr.js';
import { parseIstanbul } from './jest.js';
import { parseCoveragePy } from './python.js';

const root = '/repo/project';

describe('coverage reports', () => {
  it('reads coverage.py JSON: lines and arcs of the target only, paths made project-relative', () => {
    const json = JSON.stringify({
      files: {
        'calc/ops.py': {
          executed_lines: [1, 2, 3],
          missing_lines: [4, 9],
          executed_branches: [[2, 3]],
          missing_branches: [[2, 4]],
        },
        '/repo/project/tests/test_ops.py': { executed_lines: [1] },
      },
    });
    const data = parseCoveragePy(json, root, ['calc/ops.py']);
    expect([...data.keys()]).toEqual(['calc/ops.py']);
    expect(coverageCounts(data)).toEqual({
      lines: { covered: 3, total: 5 },
      branches: { covered: 1, total: 2 },
    });
    expect(uncoveredLines(data)).toEqual([{ file: 'calc/ops.py', lines: [4, 9] }]);
  });

  it("reads Istanbul's coverage-final.json: a line is covered when any statement on it ran", () => {
    const json = JSON.stringify({
      '/repo/project/src/ops.js': {
        path: '/repo/project/src/ops.js',
        statementMap: { 0: { start: { line: 2 } }, 1: { start: { line: 2 } }, 2: { start: { line: 3 } } },
        s: { 0: 0, 1: 4, 2: 0 },
        b: { 0: [4, 0] },
      },
    });
    const data = parseIstanbul(json, root, ['src/ops.js']);
    expect(data.get('src/ops.js')!.lines).toEqual(
      new Map([
        [2, 4],
        [3, 0],
      ]),
    );
    expect(coverageCounts(data).branches).toEqual({ covered: 1, total: 2 });
  });

  it("reads gcovr's JSON and skips lines gcov marks as no code", () => {
    const json = JSON.stringify({
      files: [
        {
          file: 'src/ops.cpp',
          lines: [
            {
              line_number: 3,
              count: 2,
              branches: [
                { branchno: 0, count: 0 },
                { branchno: 1, count: 2 },
              ],
            },
            { line_number: 4, count: 0, branches: [] },
            { line_number: 5, count: 0, 'gcovr/noncode': true },
          ],
        },
        { file: 'tests/ops_test.cpp', lines: [{ line_number: 1, count: 1 }] },
      ],
    });
    const data = parseGcovr(json, root, ['src/ops.cpp']);
    expect(coverageCounts(data)).toEqual({
      lines: { covered: 1, total: 2 },
      branches: { covered: 1, total: 2 },
    });
  });
});

describe('coverage gain', () => {
  const cov = (lines: Array<[number, number]>, branches: Array<[string, number]> = []) =>
    new Map([['a.py', { lines: new Map(lines), branches: new Map(branches) }]]);

  it('counts only what the new measurement runs that the base does not', () => {
    const base = cov(
      [
        [1, 1],
        [2, 0],
        [3, 0],
      ],
      [
        ['1>2', 1],
        ['1>3', 0],
      ],
    );
    const next = cov(
      [
        [1, 1],
        [2, 1],
        [3, 0],
      ],
      [
        ['1>2', 1],
        ['1>3', 1],
      ],
    );
    expect(coverageGain(base, next)).toEqual({ lines: [{ file: 'a.py', lines: [2] }], branches: 1 });
    expect(coverageGain(mergeCoverage(base, next), next)).toEqual({ lines: [], branches: 0 });
  });

  it('prints lines as ranges', () => {
    expect(lineRanges([1, 2, 3, 7, 9, 10])).toBe('1-3, 7, 9-10');
    expect(lineRanges([])).toBe('');
  });
});
