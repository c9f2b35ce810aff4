import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { GateReport } from '../api/contracts/report.js';
import { API_VERSION, type Reporter, type RunEndContext } from '../api/plugin.js';
import {
  registerReporterConformance,
  reporterConformanceCases,
  type ReporterConformanceOptions,
} from './reporter-conformance.js';

/** A reporter that counts what it hears and writes the count next to the run when it ends. */
function countingReporter(): Reporter {
  const seen: string[] = [];
  return {
    name: 'counting-reporter',
    apiVersion: API_VERSION,
    async onRunStart() {
      seen.push('start');
    },
    async onTestResult(event) {
      await new Promise((r) => setTimeout(r, 2));
      seen.push(`test ${event.test.id} ${event.test.status}`);
    },
    onAttemptEnd(event) {
      seen.push(`attempt ${event.attempt.verdict}`);
    },
    async onRunEnd(report: GateReport, context: RunEndContext) {
      await writeFile(join(context.runDir, 'count.txt'), `${seen.length} events, exit ${report.exitCode}\n`);
    },
  };
}

const writesCount: ReporterConformanceOptions = {
  check: async ({ report, context }) => {
    const text = await readFile(join(context.runDir, 'count.txt'), 'utf8');
    if (!text.endsWith(`exit ${report.exitCode}\n`)) throw new Error(`count.txt says ${text}`);
  },
};

registerReporterConformance({ describe, it }, countingReporter, writesCount);

async function failureOf(
  create: () => Reporter,
  name: string,
  options: ReporterConformanceOptions = {},
): Promise<string | undefined> {
  const found = reporterConformanceCases(create, options).find((c) => c.name === name);
  if (!found) throw new Error(`no case named "${name}"`);
  try {
    await found.run();
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

describe('the reporter kit fails a reporter that', () => {
  it('misspells a hook, and says which one it meant', async () => {
    const typo = (): Reporter => ({ ...countingReporter(), onTestResults: () => undefined }) as Reporter;
    expect(await failureOf(typo, 'has the plugin shape')).toBe(
      '"onTestResults" is not a reporter hook; did you mean "onTestResult"?',
    );
  });

  it('does not await its own work before onRunEnd returns', async () => {
    const hasty = (): Reporter => ({
      ...countingReporter(),
      onRunEnd(_report, context) {
        setTimeout(
          () => void writeFile(join(context.runDir, 'count.txt'), 'late\n').catch(() => undefined),
          200,
        );
      },
    });
    expect(
      await failureOf(
        hasty,
        'hears a real gate run, hook by hook, after a reporter that throws',
        writesCount,
      ),
    ).toMatch(/ENOENT.*count\.txt/);
  });

  it('throws on an event of a normal run', async () => {
    const fragile = (): Reporter => ({
      ...countingReporter(),
      onRoundEnd(event) {
        if (event.round.kind === 'regression') throw new Error('no regression column');
      },
    });
    expect(
      await failureOf(fragile, 'hears a real gate run, hook by hook, after a reporter that throws'),
    ).toBe('the reporter threw in onRoundEnd: no regression column');
  });

  it('is told about a run cut short only by its onRunEnd', async () => {
    const ends: GateReport[] = [];
    const watcher = (): Reporter => ({
      name: 'watcher',
      apiVersion: API_VERSION,
      onRunEnd: (report) => void ends.push(report),
    });
    expect(
      await failureOf(watcher, 'gets onRunEnd, once and last, when the run is cut short'),
    ).toBeUndefined();
    expect(ends).toHaveLength(1);
    expect(ends[0]).toMatchObject({ exitCode: 130, cancelled: true });
  });
});
