import { relative } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import type { Diagnostic, TestResult } from '@suture/core';
import type { VitestEvent } from './events.js';
import { testId } from './ids.js';
import { stoppedMessage } from './limits.js';
import type { Overdue } from './watchdog.js';

/** The 1-based line of a test, from what Vitest said when it collected its file. */
export function lineFromEvents(
  events: readonly VitestEvent[],
  file: string,
  project: string | undefined,
  names: readonly string[],
): number | undefined {
  const key = names.join('\0');
  for (const e of events)
    if (e.event === 'collected' && e.file === file && e.project === project)
      for (const t of e.tests) if (t.names.join('\0') === key && t.line) return t.line;
  return undefined;
}

/** A test or a test file stopped at its limit, as it goes into the result. */
export function stoppedResult(
  root: string,
  o: Overdue,
  events: readonly VitestEvent[],
  output: string,
): { test?: TestResult; diagnostic?: Diagnostic } {
  if (o.kind === 'test') {
    const file = relative(root, o.test.file);
    const line = lineFromEvents(events, o.test.file, o.test.project, o.test.names);
    const name = o.test.names.join(' > ');
    return {
      test: {
        id: testId(file, o.test.names, o.test.project),
        name,
        file,
        ...(line ? { line } : {}),
        status: 'timeout',
        durationMs: o.elapsedMs,
        message: `${name} ${stoppedMessage(o.limit)}`,
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
