import { relative } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import type { Diagnostic, TestResult } from '@suture/core';
import type { VitestEvent } from './events.js';
import type { NamedTest, TestNames } from './ids.js';
import { stuckReport } from '@suture/runner-jest/js-runner';
import { stoppedMessage } from './limits.js';
import type { Overdue } from './watchdog.js';

/** The 1-based line of a test, from what Vitest said when it collected its file. */
export function lineFromEvents(events: readonly VitestEvent[], test: NamedTest): number | undefined {
  const key = test.names.join('\0');
  const same = (t: { id?: string | undefined; names: readonly string[] }): boolean =>
    test.id !== undefined && t.id !== undefined ? t.id === test.id : t.names.join('\0') === key;
  for (const e of events)
    if (e.event === 'collected' && e.file === test.file && e.project === test.project)
      for (const t of e.tests) if (same(t) && t.line) return t.line;
  return undefined;
}

/** A test or a test file stopped at its limit, as it goes into the result. */
export function stoppedResult(
  root: string,
  o: Overdue,
  events: readonly VitestEvent[],
  output: string,
  names: TestNames,
): { test?: TestResult; diagnostic?: Diagnostic } {
  if (o.kind === 'test') {
    const file = relative(root, o.test.file);
    const line = lineFromEvents(events, o.test);
    const name = o.test.names.join(' > ');
    const stuck = stuckReport(o.stuck);
    return {
      test: {
        id: names.id(root, o.test),
        name,
        file,
        ...(line ? { line } : {}),
        status: 'timeout',
        durationMs: o.elapsedMs,
        message: `${name} ${stoppedMessage(o.limit)}${stuck.sentence}`,
        ...(stuck.trace ? { trace: stuck.trace } : {}),
        ...(stuck.details ? { details: stuck.details } : {}),
      },
    };
  }
  const file = relative(root, o.file);
  return {
    diagnostic: {
      source: 'vitest-suite',
      severity: 'error',
      code: 'Timeout',
      file,
      message: `${file} ran ${o.elapsedMs} ms outside any test (its top-level code, a beforeAll or an afterAll)${o.lastEnded === undefined ? '' : ` after "${o.lastEnded}" ended`} and was stopped at ${o.limitMs} ms; if it needs longer, raise the runner option "testTimeoutMs"`,
      notes: [],
      fixIts: [],
      tests: [],
      raw: stripVTControlCharacters(output).trimEnd().split('\n').slice(-40).join('\n'),
    },
  };
}
