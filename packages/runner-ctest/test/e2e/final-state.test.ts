import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FixRequest } from '@suture/core';
import { scriptedFixer } from '@suture/core/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, copy, gate } from './support.js';

afterAll(cleanup);

const TWICE = 'Calc.Twice';
const ADDS = 'Calc.Adds';

const git = (dir: string, ...args: string[]): string =>
  execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], {
    cwd: dir,
    encoding: 'utf8',
  });

/**
 * `twice` is built on `add`, which subtracts. twice's failure comes first and its attempts fail (a
 * wrong patch, then the fixer gives up); the heal of add, tried after it, makes it pass.
 */
function fixer() {
  let twiceAsked = 0;
  return scriptedFixer(
    Array(6).fill((r: FixRequest) => {
      if (r.failure.tests.includes(ADDS))
        return {
          verdict: 'edits',
          rationale: 'add adds',
          edits: [{ file: 'src/core.cpp', search: 'return a - b;', replace: 'return a + b;' }],
        };
      if (twiceAsked++ > 0) return { verdict: 'unfixable', diagnosis: 'twice looks right' };
      return {
        verdict: 'edits',
        rationale: 'twice as much',
        edits: [{ file: 'src/double.cpp', search: 'return add(x, x);', replace: 'return add(x, x) * 2;' }],
      };
    }),
  );
}

describe('two failure groups whose fixes interact, on a real CMake + CTest + GoogleTest project', () => {
  it('re-checks the group tried first on the final tree: healed, exit 0, and git status shows only the fix', async () => {
    const root = await copy('interact');
    git(root, 'init', '-q');
    git(root, 'add', '-A');
    git(root, 'commit', '-qm', 'fixture');
    // one test at a time: the failures come in the order the cases are declared
    const report = await gate(root, { fixers: [fixer()], parallel: 1, timeoutMs: 600_000 });
    const p = report.projects[0]!;
    // the report lists the groups in its own order; what matters is which was tried first
    expect(p.failures.map((f) => [f.failure.tests, f.outcome]).sort()).toEqual([
      [[ADDS], 'healed'],
      [[TWICE], 'healed'],
    ]);
    const twice = p.failures.find((f) => f.failure.tests.includes(TWICE))!;
    if (twice.attempts.length > 0) {
      // tried first, as its case is declared first: its attempts failed, the final tree heals it
      expect(twice.attempts.map((a) => a.verdict)).toEqual(['failed-validation', 'unfixable']);
      expect(twice.reason).toMatch(/^its tests pass on the final tree, after the heal of /);
    } else {
      // add's group was taken first (the order of the run's results, which a loaded machine can
      // change): twice is re-checked after that heal, before any fixer is asked
      expect(twice.reason).toMatch(/^its tests pass after the heal of /);
    }
    expect(p.rounds.at(-1)).toMatchObject({ kind: 'regression' });
    expect(p.status).toBe('healed');
    expect(p.totals).toMatchObject({ tests: 3, passed: 3, healed: 2, stillFailing: 0 });
    expect(report.exitCode).toBe(0);
    expect(await readFile(join(root, 'src/core.cpp'), 'utf8')).toContain('return a + b;');
    expect(await readFile(join(root, 'src/double.cpp'), 'utf8')).toContain('return add(x, x);\n');
    // the build folder and .suture/ ignore themselves
    expect(git(root, 'status', '--porcelain', '--untracked-files=all')).toBe(' M src/core.cpp\n');
  }, 900_000);
});
