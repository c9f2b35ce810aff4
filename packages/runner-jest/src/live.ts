import { relative } from 'node:path';
import type { TestResult } from '@suture/core';
import type { JestEvent } from './events.js';
import { distinctNames } from './ids.js';
import { suiteKey } from './pass.js';
import { testResultOf } from './results.js';
import type { FileFactsCache } from './test-locations.js';

export interface LiveResults {
  onEvent(event: JestEvent): void;
  /** After the run: waits for what is on its way, then delivers the final results not yet delivered. */
  finish(final: readonly TestResult[]): Promise<void>;
}

/**
 * Delivers each test's result to `deliver` as Jest reports it, in Jest's order, once per test id
 * (a test a later pass runs again is not delivered twice).
 */
export function liveResults(
  root: string,
  facts: FileFactsCache,
  wanted: (test: TestResult) => boolean,
  deliver: ((test: TestResult) => void) | undefined,
): LiveResults {
  const delivered = new Set<string>();
  const send = (test: TestResult): void => {
    if (!deliver || delivered.has(test.id) || !wanted(test)) return;
    delivered.add(test.id);
    try {
      deliver(test);
    } catch {
      // a listener's failure is not the run's
    }
  };
  let queue: Promise<void> = Promise.resolve();
  /** The full names each running file has reported, in order: a repeated one gets its mark. */
  const names = new Map<string, string[]>();
  return {
    onEvent(e) {
      if (e.event === 'file-start') {
        names.set(suiteKey(e.file, e.project), []);
        void facts.get(e.file);
      }
      if (e.event !== 'test-end' || !deliver) return;
      const key = suiteKey(e.file, e.project);
      const ended = names.get(key) ?? [];
      ended.push(e.result.fullName);
      names.set(key, ended);
      const idName = distinctNames(ended).at(-1)!;
      queue = queue.then(async () => {
        const { lineOf } = await facts.get(e.file);
        const a = e.result;
        send(
          testResultOf(
            a,
            relative(root, e.file),
            a.location?.line ?? lineOf(a.ancestorTitles, a.title),
            e.project,
            idName,
          ),
        );
      });
    },
    async finish(final) {
      await queue;
      for (const test of final) send(test);
    },
  };
}
