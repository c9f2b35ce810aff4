import { stripVTControlCharacters } from 'node:util';
import { z } from '@suture/core';

export interface ExceptionInfo {
  type: string;
  message: string;
  frames: Array<{ file: string; line: number; function: string }>;
  name?: string;
  objType?: string;
  objName?: string;
  syntax_filename?: string;
  syntax_lineno?: number;
}

const FramesSchema = z.array(z.object({ file: z.string(), line: z.number(), function: z.string() }));

const ExceptionSchema = z
  .object({ type: z.string(), message: z.string(), frames: FramesSchema })
  .passthrough();

/** Where a test was when it reached its limit (suture_pytest_timeout.py). */
const TimeoutSchema = z.object({
  limitS: z.number(),
  source: z.enum(['default', 'derived', 'declared', 'sibling']),
  /**
   * For `sibling`: the first test of the same test function (a parametrized case) or of the same
   * file that reached its limit in this run, which gave this one the re-run limit.
   */
  sibling: z
    .object({
      scope: z.enum(['function', 'file']),
      nodeid: z.string(),
      /**
       * Set when this many tests of the family had reached their limits before it started, which
       * made its limit a fifth of `rerunTimeoutMs` (1 s at least).
       */
      repeated: z.number().int().positive().optional(),
    })
    .optional(),
  /** The test did not stop at the limit: the watchdog ended its pytest process. */
  hard: z.boolean(),
  where: z.object({ file: z.string(), line: z.number(), function: z.string() }).nullable(),
  stack: z.string(),
  frames: FramesSchema,
});
export type TimeoutInfo = z.infer<typeof TimeoutSchema>;

const line = z.number().nullable();
/**
 * pytest's own text, without terminal colours. A collection error's traceback is formatted by
 * pytest before any report sees it, in colour whenever FORCE_COLOR or PY_COLORS is set (as CI
 * systems and task runners do), whatever --color says; the codes would hide its file:line lines.
 */
const text = z
  .string()
  .nullish()
  .transform((v) => (v == null ? undefined : stripVTControlCharacters(v)));

/** One line the shipped plugin writes; parsed, so a damaged line is dropped instead of breaking the fold. */
const PytestEventSchema = z.discriminatedUnion('event', [
  z.object({ event: z.literal('collected'), nodeids: z.array(z.string()) }),
  z.object({ event: z.literal('start'), nodeid: z.string(), file: z.string(), line }),
  z.object({
    event: z.literal('report'),
    nodeid: z.string(),
    when: z.enum(['setup', 'call', 'teardown']),
    outcome: z.enum(['passed', 'failed', 'skipped']),
    duration: z.number(),
    file: z.string(),
    line,
    wasxfail: z.boolean(),
    longrepr: text,
    exception: ExceptionSchema.optional(),
    timeout: TimeoutSchema.optional(),
  }),
  /** A test's last phase is over; durations in seconds, setup included. */
  z.object({
    event: z.literal('end'),
    nodeid: z.string(),
    duration: z.number().optional(),
    setup: z.number().optional(),
  }),
  /** The watchdog ended the process: this test did not come back from its limit. */
  z.object({ event: z.literal('stopped'), nodeid: z.string(), timeout: TimeoutSchema }),
  z.object({
    event: z.literal('collect-error'),
    nodeid: z.string(),
    longrepr: text.transform((v) => v ?? ''),
  }),
  /** A project module was imported from outside the project (an installed copy). */
  z.object({ event: z.literal('shadowed'), module: z.string(), loaded: z.string(), source: z.string() }),
  /** pytest-xdist runs the tests in worker processes, which the per-test limit does not reach. */
  z.object({ event: z.literal('xdist'), workers: z.string() }),
  z.object({ event: z.literal('finish'), exitstatus: z.number() }),
]);
export type PytestEvent = z.infer<typeof PytestEventSchema>;

/** One event line, or undefined when it is cut short (the process was killed) or not of the plugin's shape. */
export function parseEventLine(raw: string): PytestEvent | undefined {
  if (!raw.trim()) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return undefined;
  }
  const parsed = PytestEventSchema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

/**
 * Parses the plugin's JSON lines. A damaged line is dropped; a run that lost events this way
 * still fails on its exit code.
 */
export function parseEvents(content: string): PytestEvent[] {
  return content.split('\n').flatMap((raw) => parseEventLine(raw) ?? []);
}
