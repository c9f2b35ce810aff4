import { describe, expect, it } from 'vitest';
import type { GateReport } from '../api/contracts/report.js';
import { summarizeFiles } from './file-summary.js';
import { renderMarkdown } from '../reporters/markdown.js';
import { sampleReport } from '../reporters/sample-report.test-support.js';

/** The sample's Python project with a second test file: one test healed, one flaky, and a third file that passed. */
function withMoreFiles(): GateReport {
  const report = structuredClone(sampleReport());
  const py = report.projects[0]!;
  const base = py.failures[0]!;
  py.rounds[0]!.tests.push(
    { id: 'tests/test_b.py::test_heal', file: 'tests/test_b.py', status: 'failed', message: 'x' },
    { id: 'tests/test_b.py::test_flaky', file: 'tests/test_b.py', status: 'failed', message: 'y' },
    { id: 'tests/test_c.py::test_fine', file: 'tests/test_c.py', status: 'passed' },
    { id: 'tests/test_d.py::test_later', file: 'tests/test_d.py', status: 'skipped' },
  );
  py.rounds.push({
    kind: 'retry',
    status: 'passed',
    command: 'python3 -m pytest tests/test_b.py::test_flaky',
    durationMs: 100,
    tests: [{ id: 'tests/test_b.py::test_flaky', file: 'tests/test_b.py', status: 'passed' }],
    diagnostics: [],
    failures: [],
  });
  py.failures.push(
    {
      ...base,
      failure: {
        ...base.failure,
        id: 'py:h2',
        title: 'NameError: nme',
        tests: ['tests/test_b.py::test_heal'],
      },
    },
    {
      ...base,
      outcome: 'flaky',
      attempts: [],
      failure: {
        ...base.failure,
        id: 'py:f1',
        kind: 'flaky',
        title: 'passed on a re-run',
        tests: ['tests/test_b.py::test_flaky'],
      },
    },
  );
  return report;
}

describe('summarizeFiles', () => {
  it('sums the sample report up per test file: tests, failures with kind and outcome, runs, attempts, state', () => {
    expect(summarizeFiles(sampleReport())).toEqual([
      {
        project: 'py',
        // the skipped test has no file of its own: its nodeid names it
        file: 'tests/test_a.py',
        tests: 4,
        failed: 2,
        errors: [
          { kind: 'exception', message: "NameError: name 'totl' is not defined", outcome: 'healed' },
          { kind: 'assertion', message: 'assert 9 == 10', outcome: 'product-bug' },
        ],
        rounds: 1,
        attempts: 3,
        state: 'failing',
      },
      {
        // a build error that stopped every test belongs to no test file
        project: 'cpp',
        file: '(no file)',
        tests: 0,
        failed: 0,
        errors: [{ kind: 'build', message: "'vector' is not a member of 'std'", outcome: 'exhausted' }],
        rounds: 0,
        attempts: 0,
        state: 'failing',
      },
    ]);
  });

  it('tells healed, flaky, passed and skipped files apart, and counts only the runs that ran each file', () => {
    const files = Object.fromEntries(
      summarizeFiles(withMoreFiles())
        .filter((f) => f.project === 'py')
        .map((f) => [f.file, f]),
    );
    expect(Object.keys(files)).toEqual([
      'tests/test_a.py',
      'tests/test_b.py',
      'tests/test_c.py',
      'tests/test_d.py',
    ]);
    expect(files['tests/test_b.py']).toMatchObject({
      tests: 2,
      failed: 2,
      rounds: 2,
      attempts: 1,
      state: 'healed',
    });
    expect(files['tests/test_b.py']!.errors.map((e) => e.outcome)).toEqual(['healed', 'flaky']);
    expect(files['tests/test_c.py']).toMatchObject({
      tests: 1,
      failed: 0,
      errors: [],
      rounds: 1,
      state: 'passed',
    });
    expect(files['tests/test_d.py']!.state).toBe('skipped');
  });

  it('calls a file whose failed test no failure group explains failing, whatever else was healed', () => {
    const report = withMoreFiles();
    report.projects[0]!.rounds[0]!.tests.push({
      id: 'tests/test_b.py::test_unexplained',
      file: 'tests/test_b.py',
      status: 'error',
    });
    const b = summarizeFiles(report).find((f) => f.file === 'tests/test_b.py')!;
    expect(b).toMatchObject({ tests: 3, failed: 3, state: 'failing' });
  });
});

describe('the Markdown summary', () => {
  it('has a Test files section with a row per file, repository-relative, the troubled ones first', () => {
    const md = renderMarkdown(withMoreFiles());
    const section = md.slice(md.indexOf('### Test files'));
    const rows = section.split('\n').filter((l) => l.startsWith('| `py/'));
    expect(rows.map((r) => r.split(' | ')[0])).toEqual([
      '| `py/tests/test_a.py`',
      '| `py/tests/test_b.py`',
      '| `py/tests/test_c.py`',
      '| `py/tests/test_d.py`',
    ]);
    expect(rows[1]).toBe(
      '| `py/tests/test_b.py` | 🩹 healed | 2 | 2 | exception: NameError: nme (healed)<br>flaky: passed on a re-run (flaky) | 2 | 1 |',
    );
    expect(section).toMatch(
      /\| cpp: `\(no file\)` \| ❌ failing \| 0 \| 0 \| build: 'vector' is not a member of 'std' \(exhausted\) \| 0 \| 0 \|/,
    );
  });
});
