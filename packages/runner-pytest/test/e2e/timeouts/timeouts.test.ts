import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { silentLogger } from '@suture/core/testing';
import { afterAll, describe, expect, it } from 'vitest';
import pytest from '../../../src/index.js';
import { cleanUp, copyOf, runIn, statusById } from '../kit/project.js';

const here = fileURLToPath(new URL('.', import.meta.url));
const project = (root: string) => ({ name: 't', root, scopeDepth: 2, logger: silentLogger });

afterAll(cleanUp);

// The cases spend most of their time waiting out time limits, so they run concurrently.
describe.concurrent('per-test time limits', () => {
  it('reports a test stuck with the default settings as a timeout where it was, and runs the others', async () => {
    const root = await copyOf(here, 'stuck');
    const result = await runIn(pytest(), root, { timeoutMs: 600_000 });
    // the run ended by itself: the wall-clock limit would have made it a 'timeout' run
    expect(result.status).toBe('failed');
    expect(statusById(result)).toEqual({
      'tests/test_stuck.py::test_before': 'passed',
      'tests/test_stuck.py::test_sleeps_for_ever': 'timeout',
      'tests/test_stuck.py::test_after': 'passed',
    });
    const stuck = result.tests.find((t) => t.status === 'timeout')!;
    expect(stuck.message).toBe(
      'ran past the per-test limit of 60 s; it was at tests/test_stuck.py:9 in test_sleeps_for_ever. If it needs longer, raise the runner option "testTimeoutMs" (60000 now; 0 turns the limit off).',
    );
    expect(stuck.trace).toMatch(/File "tests\/test_stuck\.py", line 9 in test_sleeps_for_ever/);
  });

  it('stops sleeping, spinning and exception-swallowing tests at their limit, survives a crash, and runs the rest', async () => {
    const root = await copyOf(here, 'hangs');
    const result = await runIn(pytest({ testTimeoutMs: 1000 }), root);
    expect(result.status).toBe('failed');
    expect(statusById(result)).toEqual({
      'tests/test_a_before.py::test_before': 'passed',
      'tests/test_hangs.py::test_sleeps': 'timeout',
      'tests/test_hangs.py::test_spins': 'timeout',
      'tests/test_hangs.py::test_swallows_the_timeout': 'timeout',
      'tests/test_hangs.py::test_crashes': 'crashed',
      'tests/test_hangs.py::test_quick': 'passed',
      'tests/test_z_after.py::test_after': 'passed',
    });
    const byId = Object.fromEntries(result.tests.map((t) => [t.id, t]));
    expect(byId['tests/test_hangs.py::test_sleeps']!.message).toMatch(
      /^ran past the per-test limit of 1 s; it was at app\/waiting\.py:5 in wait_for_ever\. If it needs longer, raise the runner option "testTimeoutMs"/,
    );
    expect(byId['tests/test_hangs.py::test_spins']!.message).toMatch(
      /at tests\/test_hangs\.py:1[23] in test_spins\./,
    );
    expect(byId['tests/test_hangs.py::test_swallows_the_timeout']!.message).toMatch(
      /testTimeoutMs.*It did not stop there, so its pytest process was ended and the tests after it ran in a new one\.$/,
    );
    expect(byId['tests/test_hangs.py::test_crashes']).toMatchObject({
      message: 'pytest died of SIGSEGV while this test ran; the tests after it ran in a new pytest process',
      details: { signal: 'SIGSEGV' },
    });

    const failures = await pytest().analyzer!().analyze(result, project(root));
    const sleeps = failures.find((f) => f.tests.includes('tests/test_hangs.py::test_sleeps'))!;
    expect(sleeps).toMatchObject({ kind: 'timeout', location: { file: 'app/waiting.py', line: 5 } });
  });

  it('gives a re-run of selected tests a limit from their measured durations', async () => {
    const root = await copyOf(here, 'hangs');
    const runner = pytest({ rerunTimeoutMs: 1500 });
    const quick = 'tests/test_hangs.py::test_quick';
    const first = await runIn(runner, root, { selection: [quick, 'tests/test_z_after.py::test_after'] });
    expect(statusById(first)[quick]).toBe('passed');

    // a change makes the quick test hang: its re-run stops at 1.5 s, not at the 60 s default
    const file = join(root, 'tests/test_hangs.py');
    await writeFile(file, (await readFile(file, 'utf8')).replace('    assert True', '    wait_for_ever()'));
    const rerun = await runIn(runner, root, { selection: [quick] });
    expect(rerun.tests).toHaveLength(1);
    expect(rerun.tests[0]).toMatchObject({
      id: quick,
      status: 'timeout',
      details: { timeout: { limitMs: 1500, source: 'derived' } },
    });
    expect(rerun.tests[0]!.message).toMatch(
      /^ran past 1\.5 s, the limit of this re-run \(5x its earlier duration of [\d.]+ s, at least the runner option "rerunTimeoutMs" = 1500, at most "testTimeoutMs" = 60000\); it was at app\/waiting\.py:5 in wait_for_ever\. If it needs longer, raise the runner option "rerunTimeoutMs"\.$/,
    );
  });

  it('gives a re-run of a test that hung, never measured, rerunTimeoutMs instead of the whole limit', async () => {
    const root = await copyOf(here, 'hangs');
    const runner = pytest({ testTimeoutMs: 3000, rerunTimeoutMs: 1000 });
    const sleeps = 'tests/test_hangs.py::test_sleeps';
    const first = await runIn(runner, root, { selection: [sleeps] });
    expect(first.tests[0]).toMatchObject({ status: 'timeout', details: { timeout: { limitMs: 3000 } } });
    const again = await runIn(runner, root, { selection: [sleeps] });
    expect(again.tests[0]).toMatchObject({
      id: sleeps,
      status: 'timeout',
      details: { timeout: { limitMs: 1000, source: 'derived' } },
    });
    expect(again.tests[0]!.message).toBe(
      'ran past 1 s, the limit of this re-run of a test that ran past its limit before (the runner option "rerunTimeoutMs"); it was at app/waiting.py:5 in wait_for_ever. If it needs longer, raise the runner option "rerunTimeoutMs".',
    );
  });

  it('lets a test declare a longer limit of its own', async () => {
    const root = await copyOf(here, 'hangs');
    const file = join(root, 'tests/test_hangs.py');
    const source = await readFile(file, 'utf8');
    await writeFile(
      file,
      `import pytest\n${source.replace('def test_sleeps():', '@pytest.mark.timeout(2)\ndef test_sleeps():')}`,
    );
    const result = await runIn(pytest({ testTimeoutMs: 1000 }), root, {
      selection: ['tests/test_hangs.py::test_sleeps'],
    });
    expect(result.tests[0]).toMatchObject({
      status: 'timeout',
      details: { timeout: { limitMs: 2000, source: 'declared' } },
    });
    expect(result.tests[0]!.message).toMatch(/^ran past 2 s, the limit the project declares for it/);
  });
});
