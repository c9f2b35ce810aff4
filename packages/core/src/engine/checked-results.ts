import {
  RunResultSchema,
  TestResultSchema,
  type RunResult,
  type TestResult,
} from '../api/contracts/run-result.js';

type Checked = ReturnType<typeof RunResultSchema.safeParse>;

const KEYS = Object.keys(TestResultSchema.shape) as (keyof TestResult)[];

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Whether `raw` holds what `checked` was checked from: the same value in every field of the schema. */
function sameResult(raw: Record<string, unknown>, checked: TestResult): boolean {
  for (const key of KEYS) {
    const a = raw[key];
    const b = checked[key];
    if (a === b) continue;
    if (key !== 'details' || !isRecord(a) || !isRecord(b)) return false;
    const names = Object.keys(a);
    if (names.length !== Object.keys(b).length) return false;
    for (const name of names) if (!Object.hasOwn(b, name) || a[name] !== b[name]) return false;
  }
  return true;
}

/**
 * The results a runner streamed, as they were checked. At the end of its run a runner returns
 * them all again, mostly unchanged; checking 1,000 results a second time cost a gate some 10-15 ms
 * after its last test (the schema's code is still cold in a process that lives a few seconds).
 * A returned result whose every field is the one checked is taken as checked; any other is checked
 * again, so a result the runner changed after streaming it (a status, a duration from its XML) is
 * never taken from the stream.
 */
export class CheckedResults {
  private readonly byId = new Map<string, TestResult>();

  add(test: TestResult): void {
    this.byId.set(test.id, test);
  }

  /** `raw` checked against RunResultSchema, as `safeParse` would, with issue paths into `raw`. */
  parse(raw: unknown): Checked {
    if (this.byId.size === 0 || !isRecord(raw) || !Array.isArray(raw.tests))
      return RunResultSchema.safeParse(raw);
    const tests = raw.tests as unknown[];
    const reused: (TestResult | undefined)[] = [];
    const rest: unknown[] = [];
    /** Where each test of `rest` is in `raw.tests`. */
    const at: number[] = [];
    tests.forEach((test, i) => {
      const checked = isRecord(test) && typeof test.id === 'string' ? this.byId.get(test.id) : undefined;
      if (checked && sameResult(test as Record<string, unknown>, checked)) reused[i] = checked;
      else {
        rest.push(test);
        at.push(i);
      }
    });
    const parsed = RunResultSchema.safeParse({ ...raw, tests: rest });
    if (!parsed.success) {
      for (const issue of parsed.error.issues)
        if (issue.path[0] === 'tests' && typeof issue.path[1] === 'number')
          issue.path[1] = at[issue.path[1]] ?? issue.path[1];
      return parsed;
    }
    const fresh = parsed.data.tests;
    let next = 0;
    const merged: RunResult['tests'] = tests.map((_, i) => reused[i] ?? fresh[next++]!);
    return { ...parsed, data: { ...parsed.data, tests: merged } };
  }
}
