import { z, type Diagnostic, type TestResult } from '@suture/core';

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

const ExceptionSchema = z
  .object({
    type: z.string(),
    message: z.string(),
    frames: z.array(z.object({ file: z.string(), line: z.number(), function: z.string() })),
  })
  .passthrough();

const line = z.number().nullable();
/** One line the shipped plugin writes; parsed, so a damaged line is dropped instead of breaking the fold. */
const PytestEventSchema = z.discriminatedUnion('event', [
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
    longrepr: z
      .string()
      .nullish()
      .transform((v) => v ?? undefined),
    exception: ExceptionSchema.optional(),
  }),
  z.object({ event: z.literal('end'), nodeid: z.string() }),
  z.object({
    event: z.literal('collect-error'),
    nodeid: z.string(),
    longrepr: z
      .string()
      .nullable()
      .transform((v) => v ?? ''),
  }),
  z.object({ event: z.literal('finish'), exitstatus: z.number() }),
]);
type PytestEvent = z.infer<typeof PytestEventSchema>;

export interface ParsedEvents {
  tests: TestResult[];
  diagnostics: Diagnostic[];
  /** A test that started and never finished (the run was killed while it ran). */
  running?: string;
  exitStatus?: number;
}

/**
 * Parses the plugin's JSON lines. A line cut short (the process was killed) or not of the
 * plugin's shape is dropped; a run that lost events this way still fails on its exit code.
 */
export function parseEvents(text: string): PytestEvent[] {
  const events: PytestEvent[] = [];
  for (const raw of text.split('\n')) {
    if (!raw.trim()) continue;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      continue;
    }
    const parsed = PytestEventSchema.safeParse(value);
    if (parsed.success) events.push(parsed.data);
  }
  return events;
}

function lastErrorLine(longrepr: string): string {
  const e = longrepr
    .split('\n')
    .filter((l) => /^E\s/.test(l))
    .map((l) => l.replace(/^E\s+/, ''));
  return (
    e.find((l) => /^\w+(\.\w+)*(Error|Exception|Warning|Exit|Interrupt)\b/.test(l)) ??
    e[e.length - 1] ??
    longrepr.trim().split('\n').pop() ??
    ''
  );
}

/** Where a collection error points: a `File "x", line N` or `x.py:N:` mention inside the project. */
function collectLocation(longrepr: string, nodeid: string): { file: string; line?: number } {
  const m = /File "([^"]+)", line (\d+)/.exec(longrepr) ?? /^([^\s:]+\.py):(\d+)/m.exec(longrepr);
  if (m) return { file: m[1]!, line: Number(m[2]) };
  return { file: nodeid };
}

/** Folds per-phase events into one TestResult per nodeid and collection errors into diagnostics. */
export function foldEvents(events: readonly PytestEvent[]): ParsedEvents {
  const tests = new Map<string, TestResult>();
  const diagnostics: Diagnostic[] = [];
  let running: string | undefined;
  let exitStatus: number | undefined;
  for (const e of events) {
    if (e.event === 'start') {
      running = e.nodeid;
      tests.set(e.nodeid, {
        id: e.nodeid,
        file: e.file,
        ...(e.line ? { line: e.line } : {}),
        status: 'passed',
        durationMs: 0,
      });
    } else if (e.event === 'report') {
      const t = tests.get(e.nodeid) ?? {
        id: e.nodeid,
        file: e.file,
        ...(e.line ? { line: e.line } : {}),
        status: 'passed' as const,
        durationMs: 0,
      };
      t.durationMs = (t.durationMs ?? 0) + e.duration * 1000;
      if (e.outcome === 'failed') {
        // call failures win over teardown errors; a setup error is an error
        if (t.status === 'passed' || t.status === 'skipped')
          t.status = e.when === 'call' ? 'failed' : 'error';
        if (!t.trace) {
          t.trace = e.longrepr ?? '';
          t.message = e.exception
            ? `${e.exception.type}: ${e.exception.message}`.split('\n').slice(0, 3).join('\n')
            : lastErrorLine(e.longrepr ?? '');
          if (e.exception) t.details = { exception: e.exception, when: e.when };
        }
      } else if (e.outcome === 'skipped' && t.status === 'passed') {
        t.status = 'skipped';
        t.message = e.wasxfail ? 'xfail' : (e.longrepr ?? '').split('\n').pop();
      }
      tests.set(e.nodeid, t);
      if (e.when === 'teardown' && running === e.nodeid) running = undefined;
    } else if (e.event === 'end') {
      if (running === e.nodeid) running = undefined;
    } else if (e.event === 'collect-error') {
      const where = collectLocation(e.longrepr, e.nodeid);
      diagnostics.push({
        source: 'pytest-collection',
        severity: 'error',
        message: lastErrorLine(e.longrepr),
        file: where.file,
        ...(where.line ? { line: where.line } : {}),
        code: /^(\w+Error)/.exec(lastErrorLine(e.longrepr))?.[1],
        notes: [],
        fixIts: [],
        tests: [],
        raw: e.longrepr,
        symbol: e.nodeid,
      });
    } else if (e.event === 'finish') {
      exitStatus = e.exitstatus;
    }
  }
  return {
    tests: [...tests.values()],
    diagnostics,
    ...(running ? { running } : {}),
    ...(exitStatus !== undefined ? { exitStatus } : {}),
  };
}
