import { describe, expect, it } from 'vitest';
import { TestResultSchema, type TestResult } from '../api/contracts/run-result.js';
import { CheckedResults } from './checked-results.js';

const envelope = { status: 'failed', exitCode: 1, command: 'ctest', durationMs: 5 } as const;

/** What the engine keeps of a streamed result: its checked copy. */
function streamed(results: CheckedResults, raw: Record<string, unknown>): TestResult {
  const checked = TestResultSchema.parse(raw);
  results.add(checked);
  return checked;
}

describe('results checked as they streamed', () => {
  it('takes a result returned unchanged as checked, and checks the others, in the runner order', () => {
    const results = new CheckedResults();
    const a = { id: 'a', status: 'passed', durationMs: 3, details: { entry: 'suite', gtest: 'A.a' } };
    const b = { id: 'b', status: 'passed' };
    const checkedA = streamed(results, a);
    const checkedB = streamed(results, b);
    const c = { id: 'c', status: 'failed', message: 'boom' };
    const parsed = results.parse({ ...envelope, tests: [c, { ...a, details: { ...a.details } }, b] });
    expect(parsed.success).toBe(true);
    const tests = parsed.data!.tests;
    expect(tests.map((t) => t.id)).toEqual(['c', 'a', 'b']);
    expect(tests[1]).toBe(checkedA);
    expect(tests[2]).toBe(checkedB);
    expect(tests[0]).toEqual(c);
    // the envelope is checked as ever: its defaults are filled in
    expect(parsed.data).toMatchObject({ diagnostics: [], outputTail: '', selected: false });
  });

  it('checks again a result the runner changed after streaming it', () => {
    const results = new CheckedResults();
    streamed(results, { id: 'a', status: 'passed', details: { entry: 'suite' } });
    streamed(results, { id: 'b', status: 'passed', durationMs: 1 });
    streamed(results, { id: 'c', status: 'passed', extra: 'dropped by the schema' });
    const parsed = results.parse({
      ...envelope,
      tests: [
        { id: 'a', status: 'passed', details: { entry: 'suite', signal: 'SIGSEGV' } },
        { id: 'b', status: 'crashed', durationMs: 1, message: 'SIGSEGV' },
        { id: 'c', status: 'passed', line: -1 },
      ],
    });
    expect(parsed.success).toBe(false);
    // the issue names the test where the runner put it
    expect(parsed.error!.issues.map((i) => i.path.join('.'))).toEqual(['tests.2.line']);
    const fixed = results.parse({
      ...envelope,
      tests: [
        { id: 'a', status: 'passed', details: { entry: 'suite', signal: 'SIGSEGV' } },
        { id: 'b', status: 'crashed', durationMs: 1, message: 'SIGSEGV' },
      ],
    });
    expect(fixed.data!.tests).toEqual([
      { id: 'a', status: 'passed', details: { entry: 'suite', signal: 'SIGSEGV' } },
      { id: 'b', status: 'crashed', durationMs: 1, message: 'SIGSEGV' },
    ]);
  });

  it('checks a result that was never streamed, and a malformed one, as the schema does', () => {
    const results = new CheckedResults();
    streamed(results, { id: 'a', status: 'passed' });
    const parsed = results.parse({
      ...envelope,
      tests: [{ id: 'a', status: 'passed' }, 'not a result', { id: 'z' }],
    });
    expect(parsed.success).toBe(false);
    expect(parsed.error!.issues.map((i) => i.path.join('.'))).toEqual(['tests.1', 'tests.2.status']);
    expect(results.parse({ ...envelope, tests: 'none' }).success).toBe(false);
  });
});
