import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, copy, run } from './support.js';

afterAll(cleanup);

describe('a process.exit(0) in the code under test, which ends Jest mid-run with exit code 0', () => {
  it('is a failed run: the file it ended in fails with the reason, the tests that ended in it keep their results', async () => {
    const root = await copy('ended-early');
    const result = await run(root);
    expect(result.exitCode).toBe(0);
    expect(result.status).toBe('failed');
    const ids = result.tests.map((t) => [t.id, t.status]);
    expect(ids).toContainEqual(['__tests__/a-green.test.js::upper alpha', 'passed']);
    expect(ids).toContainEqual(['__tests__/calc.test.js::first', 'passed']);
    expect(ids).not.toContainEqual(['__tests__/calc.test.js::adds', 'passed']);
    expect(result.diagnostics).toContainEqual(
      expect.objectContaining({
        source: 'jest-suite',
        severity: 'error',
        file: '__tests__/calc.test.js',
        message: expect.stringContaining(
          "Jest's process exited with code 0 while __tests__/calc.test.js ran, before Jest reported the file or the end of its run",
        ),
      }),
    );
  }, 120_000);
});
