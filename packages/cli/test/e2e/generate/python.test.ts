import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import pytest from '@suture/runner-pytest';
import { AutoRunReportSchema } from '@suture/core';
import { runAutoRun } from '@suture/core/internal';
import { cleanup, workspace } from '../cli-support.js';
import {
  FIXTURES,
  autoRunOptions,
  gateProject,
  importFixer,
  requirePythonModule,
  scriptedGenerator,
  tree,
  type Script,
} from './support.js';

afterAll(cleanup);

const counter = join(tmpdir(), `suture-flaky-py-${process.pid}-${Date.now()}`);

/** One file per branch of the filter, and on the second attempt a test of what is still uncovered. */
const mix: Script = (request, attempt) => {
  if (attempt === 2) {
    const signLines = request.feedback?.uncovered.find((u) => u.file === 'calc/ops.py')?.lines ?? [];
    // the generator aims at what the feedback says: sign() starts on line 9
    if (!signLines.some((l) => l >= 10)) return [];
    return [
      {
        file: 'tests/gen/test_gen_sign.py',
        content:
          'from calc.ops import sign\n\n\ndef test_sign():\n    assert [sign(3), sign(-3), sign(0)] == [1, -1, 0]\n',
      },
    ];
  }
  return [
    {
      file: 'tests/gen/test_gen_low.py',
      content: 'from calc.ops import clamp\n\n\ndef test_low():\n    assert clamp(-1, 0, 10) == 0\n',
    },
    {
      file: 'tests/gen/test_gen_broken.py',
      content: 'from calc.ops import clamp\n\n\ndef test_broken(:\n    assert clamp(1, 0, 2) == 1\n',
    },
    {
      file: 'tests/gen/test_gen_healed.py',
      content: 'from calc.ops import clamp\n\n\ndef test_high():\n    assert clamp(math.inf, 0, 10) == 10\n',
    },
    {
      file: 'tests/gen/test_gen_fails.py',
      content: 'from calc.ops import clamp\n\n\ndef test_wrong():\n    assert clamp(5, 0, 10) == 6\n',
    },
    {
      file: 'tests/gen/test_gen_flaky.py',
      content: [
        'import os, tempfile',
        'from calc.ops import clamp',
        '',
        '',
        'def test_sometimes():',
        // the runs' own temp folder: the real /tmp is read-only in the sandbox
        `    path = os.path.join(tempfile.gettempdir(), ${JSON.stringify(basename(counter))})`,
        '    n = int(open(path).read()) + 1 if os.path.exists(path) else 1',
        "    open(path, 'w').write(str(n))",
        '    assert n % 2 == 1 and clamp(20, 0, 10) == 10',
        '',
      ].join('\n'),
    },
    {
      file: 'tests/gen/test_gen_same.py',
      content: 'from calc.ops import clamp\n\n\ndef test_again():\n    assert clamp(7, 0, 10) == 7\n',
    },
  ];
};

describe('auto-run with real pytest and coverage.py', () => {
  it('keeps exactly the files that build, pass three runs and add coverage, and feeds what is uncovered to the next attempt', async (t) => {
    requirePythonModule(t, 'coverage', 'python3 -m pip install coverage');
    const root = await workspace(join(FIXTURES, 'python'));
    const before = await tree(root);
    const { generator, requests } = scriptedGenerator('python', mix);
    const fixer = importFixer(/NameError: name 'math' is not defined/, 'math.inf', 'import math');
    const report = await runAutoRun(
      autoRunOptions(root, gateProject('py', root, pytest()), {
        source: { kind: 'generator', generator },
        target: ['calc/ops.py'],
        fixers: [fixer],
      }),
    );
    expect(report.error).toBeUndefined();
    expect(fixer.calls.some((c) => c.includes('math'))).toBe(true);
    const verdicts = Object.fromEntries(report.tests.map((x) => [x.file, x.verdict]));
    expect(verdicts).toEqual({
      'tests/gen/test_gen_low.py': 'kept',
      'tests/gen/test_gen_broken.py': 'does-not-compile',
      'tests/gen/test_gen_healed.py': 'kept',
      'tests/gen/test_gen_fails.py': 'fails',
      'tests/gen/test_gen_flaky.py': 'flaky',
      'tests/gen/test_gen_same.py': 'no-coverage',
      'tests/gen/test_gen_sign.py': 'kept',
    });
    const healed = report.tests.find((x) => x.file === 'tests/gen/test_gen_healed.py')!;
    expect(healed.attempts.some((a) => a.verdict === 'healed' && a.diff?.includes('+import math'))).toBe(
      true,
    );
    expect(report.tests.find((x) => x.file === 'tests/gen/test_gen_flaky.py')!.reason).toMatch(
      /passed [12] of 3 runs/,
    );
    expect(report.tests.find((x) => x.file === 'tests/gen/test_gen_broken.py')!.reason).toContain(
      'test_gen_broken.py',
    );

    // the second attempt was told what the first left uncovered: sign()
    expect(requests).toHaveLength(2);
    expect(requests[1]!.feedback?.uncovered[0]?.file).toBe('calc/ops.py');
    expect(requests[1]!.feedback?.removed.map((r) => r.verdict).sort()).toEqual([
      'does-not-compile',
      'fails',
      'flaky',
      'no-coverage',
    ]);
    expect(requests[0]!.existingTests).toEqual(['tests/test_ops.py']);

    // coverage rose, and every line of the target is covered now
    expect(report.coverage.before.lines.covered).toBeLessThan(report.coverage.after.lines.covered);
    expect(report.coverage.after.lines.covered).toBe(report.coverage.after.lines.total);
    expect(report.coverage.after.branches.covered).toBeGreaterThan(report.coverage.before.branches.covered);

    // the tree: the fixture plus the three kept files, the healed one as healed
    const after = await tree(root);
    expect(Object.keys(after).sort()).toEqual(
      [
        ...Object.keys(before),
        'tests/gen/test_gen_low.py',
        'tests/gen/test_gen_healed.py',
        'tests/gen/test_gen_sign.py',
      ].sort(),
    );
    expect(after['tests/gen/test_gen_healed.py']).toMatch(/^import math\n/);
    for (const f of Object.keys(before)) expect(after[f]).toBe(before[f]);

    // report, Markdown and audit trail in the run folder
    const saved = AutoRunReportSchema.parse(
      JSON.parse(await readFile(join(report.runDir!, 'report.json'), 'utf8')),
    );
    expect(saved.totals).toMatchObject({ generated: 7, kept: 3, healed: 1, llmCalls: 2 });
    const md = await readFile(join(report.runDir!, 'report.md'), 'utf8');
    expect(md).toContain('removed: flaky');
    expect(md).toContain('```diff');
    const audit = (await readFile(join(report.runDir!, 'audit.jsonl'), 'utf8')).trim().split('\n');
    expect(audit.length).toBe(report.audit.length);
    expect(report.audit.some((a) => a.kind === 'command' && a.command.includes('coverage run'))).toBe(true);
    expect(report.audit.filter((a) => a.kind === 'write').map((a) => 'file' in a && a.file)).toContain(
      'tests/gen/test_gen_broken.py',
    );
    expect(
      report.audit
        .filter((a) => a.kind === 'restore')
        .map((a) => 'file' in a && a.file)
        .sort(),
    ).toEqual([
      'tests/gen/test_gen_broken.py',
      'tests/gen/test_gen_fails.py',
      'tests/gen/test_gen_flaky.py',
      'tests/gen/test_gen_same.py',
    ]);
    expect(report.exitCode).toBe(0);
    expect(existsSync(join(root, 'tests/gen/test_gen_fails.py'))).toBe(false);
  }, 600_000);

  it('takes back every file it wrote, kept ones too, when the run fails midway', async (t) => {
    requirePythonModule(t, 'coverage', 'python3 -m pip install coverage');
    const root = await workspace(join(FIXTURES, 'python'));
    const before = await tree(root);
    const { generator } = scriptedGenerator('python', (_request, attempt) => {
      if (attempt === 2) throw new Error('the model went away');
      return [
        {
          file: 'tests/gen/test_gen_low.py',
          content: 'from calc.ops import clamp\n\n\ndef test_low():\n    assert clamp(-1, 0, 10) == 0\n',
        },
      ];
    });
    const report = await runAutoRun(
      autoRunOptions(root, gateProject('py', root, pytest()), {
        source: { kind: 'generator', generator },
        target: ['calc/ops.py'],
        fixers: [],
        flakeRuns: 1,
      }),
    );
    expect(report.exitCode).toBe(3);
    expect(report.error).toContain('the model went away');
    expect(report.tests.map((x) => [x.file, x.verdict])).toEqual([
      ['tests/gen/test_gen_low.py', 'rolled-back'],
    ]);
    expect(report.rollback.restored).toEqual(['tests/gen/test_gen_low.py']);
    expect(report.coverage.after).toEqual(report.coverage.before);
    expect(await tree(root)).toEqual(before);
    expect(existsSync(join(root, 'tests/gen'))).toBe(false);
  }, 600_000);
});
