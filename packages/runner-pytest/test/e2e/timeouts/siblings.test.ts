import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import pytest from '../../../src/index.js';
import { cleanUp, copyOf, runIn, statusById } from '../kit/project.js';

const here = fileURLToPath(new URL('.', import.meta.url));
afterAll(cleanUp);

const timeout = (result: Awaited<ReturnType<typeof runIn>>, id: string) => {
  const test = result.tests.find((t) => t.id === id);
  expect(test, id).toBeDefined();
  return { ...(test!.details?.timeout as object), message: test!.message };
};

describe('the limit of the siblings of a test that reached its limit', () => {
  it('gives the other cases of a parametrized test that hung rerunTimeoutMs, not the whole limit each', async () => {
    const root = await copyOf(here, 'cases');
    const result = await runIn(pytest({ testTimeoutMs: 3000, rerunTimeoutMs: 500 }), root);
    const ids = Array.from({ length: 9 }, (_, n) => `tests/test_cases.py::test_hangs[${n}]`);
    expect(statusById(result)).toEqual(Object.fromEntries(ids.map((id) => [id, 'timeout'])));
    const [first, ...siblings] = ids.map((id) => timeout(result, id));
    expect(first).toMatchObject({ limitMs: 3000, source: 'default' });
    expect(first!.message).toBe(
      'ran past the per-test limit of 3 s; it was at tests/test_cases.py:9 in test_hangs. If it needs longer, raise the runner option "testTimeoutMs" (3000 now; 0 turns the limit off).',
    );
    for (const sibling of siblings) {
      expect(sibling).toMatchObject({ limitMs: 500, source: 'sibling', after: ids[0] });
      expect(sibling.message).toBe(
        'ran past 0.5 s, the limit a test gets once another case of the same test, tests/test_cases.py::test_hangs[0], ran past its limit first in this run (the runner option "rerunTimeoutMs"); it was at tests/test_cases.py:9 in test_hangs. If it needs longer, raise the runner option "rerunTimeoutMs" (500 now; at "testTimeoutMs" = 3000 or above, every test gets the whole limit).',
      );
    }
    // one case waited out the whole limit: the file cost 3 s + 8 x 0.5 s, not 9 x 3 s
    expect(result.tests.filter((t) => /per-test limit of 3 s/.test(t.message ?? ''))).toHaveLength(1);
  });

  it('gives the cases after a second hang a fifth of rerunTimeoutMs, 1 s at least, where that is shorter', async () => {
    const root = await copyOf(here, 'cases');
    const result = await runIn(pytest({ testTimeoutMs: 3000, rerunTimeoutMs: 2500 }), root);
    const ids = Array.from({ length: 9 }, (_, n) => `tests/test_cases.py::test_hangs[${n}]`);
    expect(statusById(result)).toEqual(Object.fromEntries(ids.map((id) => [id, 'timeout'])));
    const [first, second, ...rest] = ids.map((id) => timeout(result, id));
    expect(first).toMatchObject({ limitMs: 3000, source: 'default' });
    expect(second).toMatchObject({ limitMs: 2500, source: 'sibling', after: ids[0] });
    expect(second).not.toHaveProperty('repeated');
    rest.forEach((t, i) => {
      expect(t).toMatchObject({ limitMs: 1000, source: 'sibling', after: ids[0], repeated: i + 2 });
      expect(t.message).toBe(
        `ran past 1 s, the limit a test gets once ${i + 2} tests of the same test, the first tests/test_cases.py::test_hangs[0], ran past their limits in this run (a fifth of the runner option "rerunTimeoutMs", 1 s at least); it was at tests/test_cases.py:9 in test_hangs. If it needs longer, raise the runner option "rerunTimeoutMs" (2500 now), or run it alone: it then gets its whole limit.`,
      );
    });
  });

  it('gives a re-run of a test stopped at a sibling’s limit its whole limit again, unless a sibling hangs in the re-run too', async () => {
    const root = await copyOf(here, 'cases');
    // one runner instance, as in a gate: the re-runs read what the earlier runs saw
    const runner = pytest({ testTimeoutMs: 3000, rerunTimeoutMs: 500 });
    const [first, second] = ['tests/test_cases.py::test_hangs[0]', 'tests/test_cases.py::test_hangs[1]'];
    const run = await runIn(runner, root, { selection: [first!, second!] });
    expect(timeout(run, second!)).toMatchObject({ limitMs: 500, source: 'sibling' });
    // alone, it is not held to the short limit: a slow test beside one that hangs may pass once fixed
    const alone = await runIn(runner, root, { selection: [second!] });
    expect(timeout(alone, second!)).toMatchObject({ limitMs: 3000, source: 'default' });
    // beside the case that hung, which its re-run holds to rerunTimeoutMs, a case gets the short limit
    const third = 'tests/test_cases.py::test_hangs[2]';
    const both = await runIn(runner, root, { selection: [first!, third] });
    expect(timeout(both, first!)).toMatchObject({ limitMs: 500, source: 'derived' });
    expect(timeout(both, third)).toMatchObject({ limitMs: 500, source: 'sibling', after: first });
  });

  it('passes a healthy sibling, keeps a declared limit and the limit of other files, and remembers a hang across a restarted process', async () => {
    const root = await copyOf(here, 'siblings');
    const result = await runIn(pytest({ testTimeoutMs: 1000, rerunTimeoutMs: 300 }), root);
    expect(statusById(result)).toEqual({
      'tests/test_mixed.py::test_case[0]': 'timeout',
      'tests/test_mixed.py::test_case[1]': 'passed',
      'tests/test_mixed.py::test_case[2]': 'timeout',
      'tests/test_mixed.py::test_declared': 'timeout',
      'tests/test_mixed.py::test_later': 'timeout',
      'tests/test_other.py::test_alone': 'timeout',
      'tests/test_swallow.py::test_swallows[0]': 'timeout',
      'tests/test_swallow.py::test_swallows[1]': 'timeout',
    });
    expect(timeout(result, 'tests/test_mixed.py::test_case[0]')).toMatchObject({
      limitMs: 1000,
      source: 'default',
    });
    expect(timeout(result, 'tests/test_mixed.py::test_case[2]')).toMatchObject({
      limitMs: 300,
      source: 'sibling',
      after: 'tests/test_mixed.py::test_case[0]',
    });
    // the project's own limit stays what it declares
    expect(timeout(result, 'tests/test_mixed.py::test_declared')).toMatchObject({
      limitMs: 2000,
      source: 'declared',
    });
    // another test function of the same file
    const later = timeout(result, 'tests/test_mixed.py::test_later');
    expect(later).toMatchObject({
      limitMs: 300,
      source: 'sibling',
      after: 'tests/test_mixed.py::test_case[0]',
    });
    expect(later.message).toMatch(
      /^ran past 0\.3 s, the limit a test gets once another test of the same file, tests\/test_mixed\.py::test_case\[0\], ran past its limit first in this run \(the runner option "rerunTimeoutMs"\)/,
    );
    // a hang in one file leaves the tests of other files their whole limit
    expect(timeout(result, 'tests/test_other.py::test_alone')).toMatchObject({
      limitMs: 1000,
      source: 'default',
    });
    // the first case swallowed its timeout, so its process was ended; the new process knew it hung
    expect(timeout(result, 'tests/test_swallow.py::test_swallows[0]')).toMatchObject({
      limitMs: 1000,
      stoppedProcess: true,
    });
    expect(timeout(result, 'tests/test_swallow.py::test_swallows[1]')).toMatchObject({
      limitMs: 300,
      source: 'sibling',
      after: 'tests/test_swallow.py::test_swallows[0]',
      stoppedProcess: false,
    });
  });
});
