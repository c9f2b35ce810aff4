import { FailureSchema, ScopeSchema, type Failure, type RunResult } from '@suture/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ctest from '../../src/index.js';
import { cleanup, copy, project, run } from './support.js';

afterAll(cleanup);

describe('the C/C++ scope of a case inside a CTest entry whose name holds ::', () => {
  let root: string;
  let result: RunResult;
  let groups: Failure[];
  const analyzer = ctest().analyzer!();
  beforeAll(async () => {
    root = await copy('entry-names');
    result = await run(root);
    groups = (await analyzer.analyze(result, project(root))).map((f) => FailureSchema.parse(f));
  }, 600_000);

  it('runs the cases of the entry calc::test under ids that keep the whole entry name', () => {
    expect(Object.fromEntries(result.tests.map((t) => [t.id, t.status]))).toEqual({
      'calc::test::Twice.Doubles': 'failed',
      'calc::test::Halve.Halves': 'passed',
      'calc::test::Small/Sizes.HalveUndoesTwice/0': 'passed',
      'calc::test::Small/Sizes.HalveUndoesTwice/1': 'passed',
    });
  });

  it("seeds the failing case's TEST body, not the sources of a program named like the entry's first part", async () => {
    const group = groups.find((g) => g.tests.includes('calc::test::Twice.Doubles'));
    expect(group, 'no failure explains calc::test::Twice.Doubles').toBeDefined();
    const scope = ScopeSchema.parse(await analyzer.scope(group!, project(root)));
    const test = scope.entries.find((e) => e.file === 'tests/calc_test.cpp');
    expect(test).toMatchObject({ role: 'test' });
    expect(test!.symbols).toContain('Twice.Doubles');
    expect(test!.reasons).toContain('the failing test calc::test::Twice.Doubles');
    const reasons = scope.entries.flatMap((e) => e.reasons);
    expect(reasons.filter((r) => r.includes('a source of the test program'))).toEqual([]);
    // reached from the TEST body through its call, and ranked by the failing line's callee
    const calc = scope.entries.find((e) => e.file === 'src/calc.cpp');
    expect(calc?.symbols).toContain('twice');
    expect(calc?.ranking?.[0]?.symbol).toBe('twice');
  });
});
