import { describe, expect, it, afterAll } from 'vitest';
import { cleanup, copy, edit, run } from './support.js';

afterAll(cleanup);

// A build that runs its unit tests as a step (add_custom_command POST_BUILD), as jsoncpp's does:
// a failing check fails the build, and what the step printed is the only evidence there is.
describe('a build step that fails with no compiler diagnostic', () => {
  it("is placed at the first line of the repository its output names, with the step's failure as evidence", async () => {
    const root = await copy('post-build');
    await edit(root, 'calc.cpp', 'return x + x;', 'return x + x + 1;');
    const r = await run(root);
    expect(r.tests).toEqual([]);
    expect(r.diagnostics).toHaveLength(1);
    const d = r.diagnostics[0]!;
    expect(d).toMatchObject({ source: 'build', severity: 'error', file: 'test/calc_test.cpp', line: 19 });
    expect(d.message).toMatch(
      /^the build step for \S*calc_test failed \(exit code 1\): .*test\/calc_test\.cpp\(19\): twice\(i\) == 2 \* i$/,
    );
    // the step printed some 20 kB: the evidence keeps its failures and its end, not the link command
    expect(d.raw!.length).toBeLessThanOrEqual(4000);
    expect(d.raw).toMatch(/calc_test\.cpp\(22\): twice\(21\) == 42/);
    expect(d.raw).toMatch(/301 failure\(s\)\s*$/);
    expect(d.raw).not.toMatch(/-o \S*calc_test/);
  }, 300_000);

  it('names the failed step, unplaced, when its output names no file of the repository', async () => {
    const root = await copy('post-build');
    await edit(
      root,
      'test/calc_test.cpp',
      'std::printf("%s(%d): %s\\n", __FILE__, __LINE__, #expr);',
      'std::printf("failed: %s\\n", #expr);',
    );
    await edit(root, 'calc.cpp', 'return x + x;', 'return x + x + 1;');
    const r = await run(root);
    const d = r.diagnostics[0]!;
    expect(d.message).toMatch(/^the build step for \S*calc_test failed \(exit code 1\)$/);
    expect(d.file).toBeUndefined();
    expect(d.raw).toMatch(/failed: twice\(21\) == 42/);
  }, 300_000);
});
