import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, copy, run } from './support.js';

afterAll(cleanup);

describe('Vitest projects (test.projects)', () => {
  it('reports each project run of a file as a test of its own, and re-runs one project run alone', async () => {
    const root = await copy('projects');
    const result = await run(root);
    expect(result.status).toBe('failed');
    expect(Object.fromEntries(result.tests.map((t) => [t.id, [t.status, t.file, t.line]]))).toEqual({
      '[unit] unit/sum.test.mjs::adds': ['passed', 'unit/sum.test.mjs', 3],
      '[unit] unit/sum.test.mjs::multiplies': ['passed', 'unit/sum.test.mjs', 7],
      '[shared] unit/sum.test.mjs::adds': ['passed', 'unit/sum.test.mjs', 3],
      '[shared] unit/sum.test.mjs::multiplies': ['passed', 'unit/sum.test.mjs', 7],
      '[shared] shared/only.test.mjs::fails in shared only': ['failed', 'shared/only.test.mjs', 3],
    });

    const failing = await run(root, { selection: ['[shared] shared/only.test.mjs::fails in shared only'] });
    expect(failing.tests.map((t) => [t.id, t.status])).toEqual([
      ['[shared] shared/only.test.mjs::fails in shared only', 'failed'],
    ]);
    // the same file and name in another project is another test: only the asked project's runs
    const one = await run(root, { selection: ['[unit] unit/sum.test.mjs::adds'] });
    expect(one.status).toBe('passed');
    expect(one.tests.map((t) => [t.id, t.status])).toEqual([['[unit] unit/sum.test.mjs::adds', 'passed']]);
  });
});

describe("Vitest's browser mode", () => {
  it('is refused before any test runs, with a message that says why and what to do instead', async () => {
    const root = await copy('browser');
    const result = await run(root);
    expect(result.status).toBe('error');
    expect(result.tests).toEqual([]);
    expect(result.error).toMatch(
      /Vitest's browser mode \(test\.browser\.enabled, in .+\) is not supported by @suture\/runner-vitest/,
    );
    expect(result.error).toMatch(
      /turn browser mode off for the suite suture gates \(a Node environment such as jsdom or happy-dom\)/,
    );
  });
});
