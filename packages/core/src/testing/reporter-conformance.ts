import { GateReportSchema, type GateReport } from '../api/contracts/report.js';
import type { Reporter, RunEndContext } from '../api/plugin.js';
import { checkApiVersion } from '../host/api-version.js';
import { wrapReporter } from '../host/wrap-plugin.js';
import { editDistance } from '../text/edit-distance.js';
import { check, silentLogger } from './conformance-utils.js';
import {
  gateWithReporters,
  HOOKS,
  recording,
  slowReporter,
  throwingReporter,
  type Call,
} from './reporter-run.js';
import type { ConformanceCase, TestApi } from './runner-conformance.js';

export interface ReporterConformanceOptions {
  /**
   * Checks what the reporter produced, called once `onRunEnd` has returned: a file it wrote, a
   * request it sent. A reporter that does not await its own work fails here.
   */
  check?: (ended: { report: GateReport; context: RunEndContext }) => void | Promise<void>;
  /** Where the gated project is made (default the OS temp dir). */
  tempParent?: string;
}

const has = (r: Reporter, hook: string): boolean =>
  typeof (r as unknown as Record<string, unknown>)[hook] === 'function';

/** The order a run's hooks must keep: starts first, ends last, a project's events between its start and end. */
function checkOrder(calls: readonly Call[]): void {
  const hooks = calls.map((c) => c.hook);
  const first = (h: string): number => hooks.indexOf(h as Call['hook']);
  const last = (h: string): number => hooks.lastIndexOf(h as Call['hook']);
  if (first('onRunStart') !== -1) check(first('onRunStart') === 0, `onRunStart came after ${hooks[0]}`);
  if (first('onRunEnd') !== -1) {
    check(
      last('onRunEnd') === hooks.length - 1,
      `a hook came after onRunEnd: ${hooks.slice(last('onRunEnd') + 1).join(', ')}`,
    );
    check(first('onRunEnd') === last('onRunEnd'), 'onRunEnd was called more than once');
  }
  for (const h of ['onTestResult', 'onRoundEnd', 'onAttemptStart', 'onAttemptEnd']) {
    if (first(h) === -1) continue;
    if (first('onProjectStart') !== -1)
      check(first('onProjectStart') < first(h), `${h} came before onProjectStart`);
    if (first('onProjectEnd') !== -1) check(last(h) < first('onProjectEnd'), `${h} came after onProjectEnd`);
  }
  for (let i = 0; i < calls.length; i++) {
    const c = calls[i]!;
    if (c.hook !== 'onAttemptStart') continue;
    const end = calls.findIndex((d, j) => j > i && d.hook === 'onAttemptEnd');
    check(end !== -1, 'an onAttemptStart had no onAttemptEnd after it');
  }
}

function checkCalls(calls: readonly Call[], overlaps: readonly string[]): void {
  for (const c of calls) check(c.error === undefined, `the reporter threw in ${c.hook}: ${c.error}`);
  check(overlaps.length === 0, `hooks overlapped (each must be awaited before the next): ${overlaps[0]}`);
  checkOrder(calls);
  const end = calls.find((c) => c.hook === 'onRunEnd');
  if (end) GateReportSchema.parse(end.event);
}

/**
 * The checks every reporter must pass, as named cases: its shape, and what it gets from a real
 * gate run (a real project, real test processes, a real heal) with a reporter that throws in
 * every hook before it: every hook it implements is called, in the order of the run, each one
 * awaited before the next, and `onRunEnd` comes (once, last) also when the run is cut short.
 */
export function reporterConformanceCases(
  create: () => Reporter | Promise<Reporter>,
  options: ReporterConformanceOptions = {},
): ConformanceCase[] {
  const gate = async (interruptOn?: 'onAttemptStart'): Promise<void> => {
    const reporter = await create();
    // through the wrapper the gate puts around a configured reporter
    const under = recording(wrapReporter(reporter, undefined, silentLogger));
    const after = recording(slowReporter());
    const run = await gateWithReporters([throwingReporter, under.reporter, after.reporter], {
      ...(options.tempParent ? { tempParent: options.tempParent } : {}),
      ...(interruptOn ? { interruptOn } : {}),
    });
    try {
      for (const hook of HOOKS)
        if (has(reporter, hook) && (hook !== 'onAttemptEnd' || !interruptOn))
          check(
            under.calls.some((c) => c.hook === hook),
            `${hook} was never called in a run where it happened (is it a method of the object the factory returns?)`,
          );
      checkCalls(under.calls, under.overlaps);
      checkCalls(after.calls, after.overlaps);
      const count = (calls: readonly Call[], hook: string): number =>
        calls.filter((c) => c.hook === hook).length;
      for (const hook of HOOKS)
        if (has(reporter, hook))
          check(
            count(after.calls, hook) === count(under.calls, hook),
            `the reporter after it got ${count(after.calls, hook)} ${hook} calls, the reporter ${count(under.calls, hook)}`,
          );
      check(
        count(after.calls, 'onRunEnd') === 1,
        'the reporters after one that throws must still get onRunEnd',
      );
      if (interruptOn)
        check(run.report.cancelled === true, 'the interrupted run should say so in its report (cancelled)');
      const end = under.calls.find((c) => c.hook === 'onRunEnd');
      if (end && options.check)
        await options.check({ report: end.event as GateReport, context: end.context as RunEndContext });
    } finally {
      await run.dispose();
    }
  };

  return [
    {
      name: 'has the plugin shape',
      run: async () => {
        const reporter = await create();
        check(
          typeof reporter.name === 'string' && reporter.name.length > 0,
          'name must be a non-empty string',
        );
        const api = checkApiVersion(reporter);
        check(api.ok, `this @suture/core would refuse the reporter: ${api.ok ? '' : api.reason}`);
        const hooks = HOOKS.filter((h) => has(reporter, h));
        check(hooks.length > 0, `a reporter implements at least one hook: ${HOOKS.join(', ')}`);
        const known = new Set<string>([...HOOKS, 'name', 'apiVersion', 'apiRange']);
        for (const key of Object.keys(reporter)) {
          if (known.has(key) || !/^on[A-Z]/.test(key)) continue;
          const near = HOOKS.find((h) => editDistance(h, key) <= 2);
          check(false, `"${key}" is not a reporter hook${near ? `; did you mean "${near}"?` : ''}`);
        }
      },
    },
    {
      name: 'hears a real gate run, hook by hook, after a reporter that throws',
      run: () => gate(),
    },
    {
      name: 'gets onRunEnd, once and last, when the run is cut short',
      run: () => gate('onAttemptStart'),
    },
  ];
}

/**
 * Registers the reporter conformance suite with a test framework:
 * `registerReporterConformance({ describe, it, beforeAll, afterAll }, () => myReporter(), { check })`.
 */
export function registerReporterConformance(
  api: Pick<TestApi, 'describe' | 'it'>,
  create: () => Reporter | Promise<Reporter>,
  options: ReporterConformanceOptions = {},
): void {
  const cases = reporterConformanceCases(create, options);
  api.describe('reporter conformance', () => {
    for (const c of cases) api.it(c.name, c.run, 120_000);
  });
}
