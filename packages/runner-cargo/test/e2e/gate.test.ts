import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Edit } from '@suture/core';
import { scriptedFixer } from '@suture/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import '../toolchain.js';
import { built, cleanup, gate, gitStatus } from './gate-support.js';

const LIB = 'src/lib.rs';
const SUBTRACTS = 'src/lib.rs::tests::subtracts';
const FIX: Edit = {
  file: LIB,
  search: 'pub fn sub(a: i32, b: i32) -> i32 {\n    a + b',
  replace: 'pub fn sub(a: i32, b: i32) -> i32 {\n    a - b',
};

let fixture: { copy: () => Promise<string> };
let workspace: { copy: () => Promise<string> };
beforeAll(async () => {
  fixture = await built('gate');
  workspace = await built('ws');
});
afterAll(cleanup);

/** Artifacts of a run's cargo JSON that cargo rebuilt (`"fresh":false`), by target name. */
function rebuilt(output: string): string[] {
  return [...output.matchAll(/^\{"reason":"compiler-artifact".*$/gm)]
    .map((m) => JSON.parse(m[0]) as { fresh: boolean; target: { name: string; kind: string[] } })
    .filter((a) => !a.fresh)
    .map((a) => `${a.target.kind[0]}:${a.target.name}`);
}

describe('the gate on a real cargo project', () => {
  it('heals a bug in the code under test: the validation re-runs only the failed test, the initial run rebuilds nothing of a warm build', async () => {
    const root = await fixture.copy();
    const fixer = scriptedFixer([{ verdict: 'edits', rationale: 'sub subtracts', edits: [FIX] }]);
    const { report, runs } = await gate({ root, mode: 'fix', fixers: [fixer], heal: { maxAttempts: 1 } });
    const project = report.projects[0]!;
    expect(project.status).toBe('healed');
    const failure = project.failures.find((f) => f.failure.tests.includes(SUBTRACTS))!;
    expect(failure.outcome).toBe('healed');
    expect(failure.failure.location).toMatchObject({ file: LIB, symbol: 'tests::subtracts' });
    const validation = failure.attempts[0]!.validation!;
    expect(validation.passed).toBe(true);
    expect(validation.command).toMatch(/-- --exact tests::subtracts$/);
    expect(validation.command).toMatch(/^cargo test /);
    expect(rebuilt(String(runs[0]!.outputTail))).toEqual([]);
    // the patch rebuilt the library and what links it, in the view
    expect(rebuilt(String(runs[1]!.outputTail))).toContain('lib:gate');
    expect(await readFile(join(root, LIB), 'utf8')).toContain('    a - b');
    expect(gitStatus(root)).toBe(` M ${LIB}\n`);
  });

  it('heals a workspace member whose target/ is outside it, building in target-suture/ (real, writable, warm across runs)', async () => {
    const repo = await workspace.copy();
    const root = join(repo, 'member');
    const fix: Edit = { file: 'src/lib.rs', search: 'util::double(x) + x', replace: 'util::double(x) * 2' };
    const fixer = scriptedFixer([{ verdict: 'edits', rationale: 'quadruple', edits: [fix] }]);
    const first = await gate({ root, mode: 'check', fixers: [fixer], heal: { maxAttempts: 1 } });
    const failure = first.report.projects[0]!.failures[0]!;
    expect(failure.failure.tests).toEqual(['src/lib.rs::tests::quadruples']);
    expect(failure.outcome).toBe('healed');
    expect(await readFile(join(root, 'target-suture/.gitignore'), 'utf8')).toMatch(/^# Created by suture/);
    // the next gate rebuilds once what the patch compiled in the view (its outputs were set back),
    // never the dependency the patch did not touch; the one after rebuilds nothing
    const again = () => gate({ root, mode: 'check', fixers: [scriptedFixer([])], heal: { maxAttempts: 1 } });
    const second = await again();
    expect(rebuilt(String(second.runs[0]!.outputTail)).filter((t) => t.endsWith(':util'))).toEqual([]);
    const third = await again();
    expect(rebuilt(String(third.runs[0]!.outputTail))).toEqual([]);
    expect(gitStatus(repo)).toBe('');
  });

  const attacks: Array<[string, Edit, RegExp]> = [
    [
      '#[ignore] on the failing unit test',
      {
        file: LIB,
        search: '    #[test]\n    fn subtracts',
        replace: '    #[test]\n    #[ignore]\n    fn subtracts',
      },
      /marks the test tests::subtracts #\[ignore\]/,
    ],
    [
      '#[should_panic] on the failing unit test',
      {
        file: LIB,
        search: '    #[test]\n    fn subtracts',
        replace: '    #[test]\n    #[should_panic]\n    fn subtracts',
      },
      /#\[should_panic\]/,
    ],
    [
      'assert_eq!(a, b) made assert_eq!(a, a)',
      { file: LIB, search: 'assert_eq!(sub(5, 3), 2);', replace: 'assert_eq!(sub(5, 3), sub(5, 3));' },
      /assert_eq!\(sub\(5,3\),sub\(5,3\)\), which cannot fail/,
    ],
    [
      'assert_eq!(a, b) made assert!(true)',
      { file: LIB, search: 'assert_eq!(sub(5, 3), 2);', replace: 'assert!(true);' },
      /assert!\(true\), which cannot fail/,
    ],
    [
      'an early return before the assertion',
      { file: LIB, search: '    fn subtracts() {\n', replace: '    fn subtracts() {\n        return;\n' },
      /an early return before it/,
    ],
    [
      'process::exit(0) in the code under test',
      {
        file: LIB,
        search: 'pub fn sub(a: i32, b: i32) -> i32 {\n',
        replace: 'pub fn sub(a: i32, b: i32) -> i32 {\n    std::process::exit(0);\n',
      },
      /std::process::exit\(\), which ends the test binary/,
    ],
    [
      'a macro_rules! assert_eq that never fails',
      {
        file: LIB,
        search: 'pub fn add(',
        replace: '#[macro_export]\nmacro_rules! assert_eq { ($($t:tt)*) => {} }\n\npub fn add(',
      },
      /macro_rules! assert_eq/,
    ],
    [
      'the test module compiled out',
      { file: LIB, search: '#[cfg(test)]\nmod tests', replace: '#[cfg(not(test))]\nmod tests' },
      /#\[cfg\(not\(test\)\)\]/,
    ],
  ];
  it.each(attacks)(
    'refuses %s, through the real gate; the tree stays as it was and the gate exits 1',
    async (_name, edit, reason) => {
      const root = await fixture.copy();
      const before = await readFile(join(root, LIB), 'utf8');
      const fixer = scriptedFixer(
        Array(3).fill({ verdict: 'edits', rationale: 'make it green', edits: [edit] }),
      );
      const { report } = await gate({ root, mode: 'fix', fixers: [fixer], heal: { maxAttempts: 1 } });
      expect(report.exitCode).toBe(1);
      const failure = report.projects[0]!.failures.find((f) => f.failure.tests.includes(SUBTRACTS))!;
      expect(failure.outcome).not.toBe('healed');
      expect(failure.attempts[0]).toMatchObject({
        verdict: 'refused',
        reason: expect.stringMatching(reason),
      });
      expect(await readFile(join(root, LIB), 'utf8')).toBe(before);
      expect(gitStatus(root)).toBe('');
    },
  );
});
