import { relative } from 'node:path';
import type { TestResult } from '@suture/core';
import type { JestEvent } from './events.js';
import { testId } from './ids.js';
import { HangMemory, familyOf, siblingLimit, type Family } from './js-runner/siblings.js';
import type { Limit } from './limits.js';
import { suiteKey, type PassResult } from './pass.js';
import { testResultOf, type AssertionResult } from './results.js';
import type { FileFactsCache } from './test-locations.js';
import type { RunningTest } from './watchdog.js';

interface TimedOut {
  file: string;
  project?: string;
  result: AssertionResult;
}

/**
 * The limits of the siblings of the tests that ran past their limit in one Jest run. A test ran
 * past its limit when Jest's own timeout ended it, or when suture stopped it (one that blocks its
 * worker); the tests of its file, the other cases of its `test.each` first among them, that start
 * after it get `rerunTimeoutMs` at most, which the watchdog holds them to. Passes after the first
 * leave out, besides the tests that were stopped, those Jest's own timeout ended in a file that
 * did not end: run again, each would cost its timeout once more, and at a sibling's limit it would
 * no longer be the test that ran past its limit first.
 */
export class SiblingLimits {
  private readonly hangs = new HangMemory();
  /** Tests Jest's own timeout ended in this pass, in files that have not ended, by suiteKey. */
  private readonly open = new Map<string, TimedOut[]>();
  /** Tests Jest's own timeout ended in files a stopped pass did not end: their results stand. */
  private readonly carried: TimedOut[] = [];
  /** Ids of the tests stopped at a sibling's limit: a later re-run gives them their whole limit. */
  readonly stoppedShort = new Set<string>();

  constructor(
    private readonly root: string,
    private readonly facts: FileFactsCache,
    private readonly rerunTimeoutMs: number,
  ) {}

  private family(
    file: string,
    project: string | undefined,
    ancestors: readonly string[],
    title: string | undefined,
    line?: number | null,
  ): Family {
    const at = line ?? (title === undefined ? undefined : this.facts.now(file)?.lineOf(ancestors, title));
    return familyOf(file, project, ancestors, at);
  }

  /** The limit of a running test: `whole`, or its sibling's shorter limit. */
  limit(test: RunningTest, whole: Limit): Limit {
    const { file, project, ancestorTitles, title, startedAt } = test;
    const declared =
      title !== undefined && this.facts.now(file)?.timeoutOf(ancestorTitles, title) !== undefined;
    const after = this.hangs.before(this.family(file, project, ancestorTitles, title), startedAt);
    return siblingLimit(whole, after, this.rerunTimeoutMs, declared);
  }

  /** Each event of a pass, in order. */
  observe(e: JestEvent): void {
    if (e.event === 'file-end') this.open.delete(suiteKey(e.file, e.project));
    if (e.event !== 'test-end') return;
    const a = e.result;
    const t = testResultOf(a, relative(this.root, e.file), undefined, e.project);
    if (t.status !== 'timeout') return;
    this.hangs.record(
      t.id,
      this.family(e.file, e.project, a.ancestorTitles, a.title, a.location?.line),
      e.at,
    );
    const key = suiteKey(e.file, e.project);
    const timedOut = { file: e.file, ...(e.project !== undefined ? { project: e.project } : {}), result: a };
    this.open.set(key, [...(this.open.get(key) ?? []), timedOut]);
  }

  /**
   * After a pass that was stopped at `at` for the tests that ran past their limits: records them,
   * and gives the full names the next passes leave out.
   */
  stopped(pass: Pick<PassResult, 'overdue'>, at: number): string[] {
    for (const o of pass.overdue) {
      if (o.kind !== 'test') continue;
      const { file, project, fullName, ancestorTitles, title } = o.test;
      const id = testId(relative(this.root, file), fullName, project);
      this.hangs.record(id, this.family(file, project, ancestorTitles, title), at);
      if (o.limit.sibling) this.stoppedShort.add(id);
    }
    const left = [...this.open.values()].flat();
    this.open.clear();
    this.carried.push(...left);
    return left.map((t) => t.result.fullName);
  }

  /** `tests` with the results the passes carried over in place of what later passes said of them. */
  async withCarried(tests: readonly TestResult[]): Promise<TestResult[]> {
    let out = [...tests];
    for (const { file, project, result } of this.carried) {
      const { lineOf } = await this.facts.get(file);
      const line = result.location?.line ?? lineOf(result.ancestorTitles, result.title);
      const t = testResultOf(result, relative(this.root, file), line, project);
      out = [...out.filter((x) => x.id !== t.id), t];
    }
    return out;
  }
}

/** What a result says of the limit a test was stopped at, for its details. */
export function limitDetails(limit: Limit): Record<string, unknown> {
  return {
    limitMs: limit.ms,
    source: limit.sibling ? 'sibling' : 'test',
    ...(limit.sibling ? { after: limit.sibling.after, scope: limit.sibling.scope } : {}),
    ...(limit.sibling?.repeated ? { repeated: limit.sibling.repeated } : {}),
  };
}
