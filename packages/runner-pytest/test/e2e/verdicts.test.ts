import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RunResultSchema, type RunResult } from '@suture/core';
import { scriptedFixer, silentLogger } from '@suture/core/testing';
import { afterAll, describe, expect, it } from 'vitest';
import pytest from '../../src/index.js';
import { cleanup, gate, repoWith } from './gate-support.js';

afterAll(cleanup);

async function run(root: string, selection?: string[]): Promise<RunResult> {
  const workDir = await mkdtemp(join(tmpdir(), 'suture-pytest-work-'));
  return RunResultSchema.parse(
    await pytest().run({
      root,
      workDir,
      timeoutMs: 60_000,
      signal: new AbortController().signal,
      logger: silentLogger,
      ...(selection ? { selection } : {}),
    }),
  );
}

const ADD = 'tests/test_calc.py::test_add';

describe('code under test that forks and exits 0 in the parent while a test runs', () => {
  it('is a failed run: the status comes from the results, not from the exit code', async () => {
    const { root } = await repoWith('fork-exit');
    const result = await run(root);
    expect(result.exitCode).toBe(0);
    expect(result.status).toBe('failed');
    expect(result.collected).toBe(2);
    expect(result.tests.find((t) => t.id === ADD)).toMatchObject({
      status: 'failed',
      message: expect.stringContaining('assert -1 == 5'),
    });
  }, 60_000);

  it('makes the gate red with test_add failing, not green', async () => {
    const { repo, root } = await repoWith('fork-exit');
    const report = await gate({ repo, root, fixers: [], heal: { flakyReruns: 0 } });
    expect(report.exitCode).toBe(1);
    const project = report.projects[0]!;
    expect(project.status).toBe('failed');
    expect(project.rounds[0]).toMatchObject({ kind: 'initial', status: 'failed' });
    expect(project.failures.flatMap((f) => f.failure.tests)).toContain(ADD);
  }, 120_000);
});

describe('a pytest process that ends before its session finishes', () => {
  it('fails each collected test that reported no result, with the reason', async () => {
    const { root } = await repoWith('session-cut');
    const result = await run(root);
    expect(result.exitCode).toBe(0);
    expect(result.status).toBe('failed');
    expect(result.tests.map((t) => [t.id, t.status])).toEqual([
      [ADD, 'crashed'],
      ['tests/test_calc.py::test_add_zero', 'crashed'],
    ]);
    expect(result.tests[0]!.message).toBe(
      "collected, but pytest reported no result for it: the pytest process exited with code 0 before its session finished (pytest's sessionfinish never ran): something ended the process early (os._exit, a fork whose parent exits, a signal)",
    );
  }, 60_000);

  it('is an error when it ends before pytest collected the tests', async () => {
    const { root } = await repoWith('fork-exit');
    await writeFile(join(root, 'calc', 'core.py'), 'import os\n\nos._exit(0)\n');
    const result = await run(root);
    expect(result.exitCode).toBe(0);
    expect(result).toMatchObject({
      status: 'error',
      tests: [],
      error: expect.stringContaining('it ended before pytest had collected the tests'),
    });
  }, 60_000);
});

describe('code under test that ends the session from inside a test (pytest.exit)', () => {
  it.each([
    ['returncode=0', 0],
    ['its default returncode', 2],
  ])(
    'with %s: the test it ran in has no result, the tests after it did not run, and none passed',
    async (how, code) => {
      const { root } = await repoWith('fork-exit');
      const exit = code === 0 ? 'pytest.exit("done", returncode=0)' : 'pytest.exit("done")';
      await writeFile(
        join(root, 'calc', 'core.py'),
        `import pytest\n\n\ndef add(a, b):\n    ${exit}\n\n\ndef twice(a):\n    return a * 2\n`,
      );
      const result = await run(root);
      expect(result.exitCode).toBe(code);
      expect(result.status).toBe('failed');
      expect(result.tests.map((t) => [t.id, t.status])).toEqual([
        [ADD, 'error'],
        ...(code === 0 ? [['tests/test_calc.py::test_twice', 'crashed']] : []),
      ]);
      expect(result.tests[0]!.message).toContain("pytest's session ended (exit status");
      // the validation of test_add alone: what a patch that calls pytest.exit would get
      const alone = await run(root, [ADD]);
      expect(alone.tests).toEqual([expect.objectContaining({ id: ADD, status: 'error' })]);
    },
    60_000,
  );
});

describe('a failing test that a patch makes skip or xfail', () => {
  const NEG = 'tests/test_calc.py::test_add_negatives';
  const FAST = 'tests/test_calc.py::test_fast_add';

  it('is not healed: the validation says it ended xfailed or skipped', async () => {
    const { repo, root } = await repoWith('skip-heal');
    const proposals = [
      {
        verdict: 'edits',
        rationale: 'negatives are not supported',
        edits: [
          {
            file: 'calc/core.py',
            search: '    return a - b',
            replace:
              '    if a < 0 or b < 0:\n        raise NotImplementedError("negatives")\n    return a - b',
          },
        ],
      },
      {
        verdict: 'edits',
        rationale: 'the fast path needs its speedups',
        edits: [{ file: 'calc/fast.py', search: 'def add', replace: 'import calc._speedups\n\n\ndef add' }],
      },
    ] as const;
    const pick = (req: { failure: { tests: string[] } }): (typeof proposals)[number] =>
      req.failure.tests.includes(NEG) ? proposals[0] : proposals[1];
    const fixer = scriptedFixer([pick, pick]);
    const report = await gate({ repo, root, fixers: [fixer], heal: { maxAttempts: 1, flakyReruns: 0 } });
    expect(report.exitCode).toBe(1);
    const failures = report.projects[0]!.failures;
    const neg = failures.find((f) => f.failure.tests.includes(NEG))!;
    const fast = failures.find((f) => f.failure.tests.includes(FAST))!;
    for (const f of [neg, fast]) {
      expect(f.outcome).toBe('exhausted');
      expect(f.attempts[0]!.verdict).toBe('failed-validation');
    }
    expect(neg.attempts[0]!.validation!.stillFailing).toEqual([
      { id: NEG, message: expect.stringContaining('ended xfailed (expected to fail)') },
    ]);
    expect(fast.attempts[0]!.validation!.stillFailing).toEqual([
      {
        id: FAST,
        message: expect.stringMatching(/^was skipped \(.*calc\._speedups.*\): a test that failed/),
      },
    ]);
  }, 180_000);
});
