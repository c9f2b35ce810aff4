import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { GateReport, ProjectReport } from '../api/contracts/report.js';
import type { TestResult } from '../api/contracts/run-result.js';
import { fileDiff } from '../safety/patch.js';
import { foldParts, joinFileDiffs, projectParts } from './merge-parts.js';
import { mergeReports, MergeError } from './merge-reports.js';
import { sampleReport } from '../reporters/sample-report.test-support.js';

const passed = (id: string): TestResult => ({ id, status: 'passed', durationMs: 10 });
const failed = (id: string): TestResult => ({ id, status: 'failed', durationMs: 10 });

/** A part of project `shop`: the tests of its files, one failure group healed by a regression run. */
function part(tests: TestResult[], healed?: string): ProjectReport {
  const base = sampleReport().projects[0]!;
  const group = healed
    ? [
        {
          ...base.failures[0]!,
          failure: { ...base.failures[0]!.failure, fingerprint: `fp-${healed}`, tests: [healed] },
        },
      ]
    : [];
  const initial = {
    kind: 'initial' as const,
    status: healed ? ('failed' as const) : ('passed' as const),
    command: 'pytest',
    durationMs: 100,
    tests,
    diagnostics: [],
    failures: [],
  };
  const after = tests.map((t) => passed(t.id));
  return {
    ...base,
    name: 'shop',
    failures: group,
    rounds: healed
      ? [
          initial,
          { ...initial, kind: 'retry', tests: [passed(healed)] },
          { ...initial, kind: 'regression', status: 'passed', tests: after },
        ]
      : [initial],
  };
}

const run = (runId: string, projects: ProjectReport[], patch = ''): GateReport =>
  sampleReport({ runId, projects, patch, mode: 'fix' });

describe('projectParts', () => {
  it('knows the parts of a project that shards of one split gated, and nothing else', () => {
    const a = run('r-shard1of2', [part([passed('a.py::t')])]);
    const b = run('r-shard2of2', [part([passed('b.py::t')])]);
    expect(
      projectParts([
        { source: 'a', report: a },
        { source: 'b', report: b },
      ]),
    ).toEqual(new Set(['shop']));
    // two full runs, or shards of different splits, gate one project twice: no parts
    expect(
      projectParts([
        { source: 'a', report: run('r1', [part([])]) },
        { source: 'b', report: run('r2', [part([])]) },
      ]).size,
    ).toBe(0);
    const other = run('r-shard1of3', [part([])]);
    expect(
      projectParts([
        { source: 'a', report: a },
        { source: 'c', report: other },
      ]).size,
    ).toBe(0);
  });
});

describe('foldParts', () => {
  it('makes one project of the parts: one initial round, one final round, totals and status again', () => {
    const one = part([failed('tests/test_a.py::t1'), passed('tests/test_a.py::t2')], 'tests/test_a.py::t1');
    const two = part([passed('tests/test_b.py::t3')]);
    const folded = foldParts(
      [
        { source: 's1', project: one },
        { source: 's2', project: two },
      ],
      'fix',
    ) as ProjectReport;
    expect(folded.rounds.map((r) => [r.kind, r.tests.map((t) => t.id)])).toEqual([
      ['initial', ['tests/test_a.py::t1', 'tests/test_a.py::t2', 'tests/test_b.py::t3']],
      ['retry', ['tests/test_a.py::t1']],
      ['regression', ['tests/test_a.py::t1', 'tests/test_a.py::t2', 'tests/test_b.py::t3']],
    ]);
    expect(folded.rounds[0]!.status).toBe('failed');
    expect(folded.totals).toMatchObject({ tests: 3, passed: 3, failures: 1, healed: 1, stillFailing: 0 });
    expect(folded.status).toBe('healed');
  });

  it('refuses parts that ran the same test', () => {
    const why = foldParts(
      [
        { source: 's1', project: part([passed('a.py::t')]) },
        { source: 's2', project: part([passed('a.py::t')]) },
      ],
      'check',
    );
    expect(why).toBe('project "shop" ran test a.py::t in both s1 and s2; merge the shards of one split only');
  });

  it('is what mergeReports does with the shards of a split project', () => {
    const merged = mergeReports([
      { source: 's1', report: run('r-shard1of2', [part([failed('a.py::t')], 'a.py::t')]) },
      { source: 's2', report: run('r-shard2of2', [part([passed('b.py::t')])]) },
    ]);
    expect(merged.projects.map((p) => [p.name, p.totals.tests, p.status])).toEqual([['shop', 2, 'healed']]);
    expect(merged.exitCode).toBe(0);
    expect(() =>
      mergeReports([
        { source: 's1', report: run('r1', [part([])]) },
        { source: 's2', report: run('r2', [part([])]) },
      ]),
    ).toThrow(MergeError);
  });
});

describe('joinFileDiffs', () => {
  const base = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`).join('\n') + '\n';
  const fixTop = base.replace('line 3\n', 'line three\n');
  const fixBottom = base.replace('line 25\n', 'line 25\nline 25b\n');
  const diff = (after: string): string => fileDiff('calc.py', base, after);

  it('joins two fixes of one file into a patch git apply takes, in either order', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'suture-join-'));
    try {
      for (const joined of [
        joinFileDiffs(diff(fixTop), diff(fixBottom)),
        joinFileDiffs(diff(fixBottom), diff(fixTop)),
      ]) {
        await writeFile(join(dir, 'calc.py'), base);
        await writeFile(join(dir, 'fix.patch'), joined!);
        execFileSync('git', ['apply', 'fix.patch'], { cwd: dir });
        const both = base.replace('line 3\n', 'line three\n').replace('line 25\n', 'line 25\nline 25b\n');
        expect(execFileSync('cat', ['calc.py'], { cwd: dir, encoding: 'utf8' })).toBe(both);
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('keeps one of two equal diffs and refuses two that change the same lines', () => {
    expect(joinFileDiffs(diff(fixTop), diff(fixTop))).toBe(diff(fixTop));
    expect(joinFileDiffs(diff(fixTop), diff(base.replace('line 3\n', 'line 3!\n')))).toBeUndefined();
  });
});
