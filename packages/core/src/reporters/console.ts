import { join, relative } from 'node:path';
import { z } from 'zod';
import type { Round } from '../api/contracts/report.js';
import { gitApplyCommand } from '../safety/patch.js';
import { pluginErrorLine } from './plugin-error-line.js';
import { usageLine } from './usage-line.js';
import { gateVerdict } from './verdict.js';
import { API_VERSION, type Reporter } from '../api/plugin.js';

const ConsoleOptionsSchema = z.object({ verbose: z.boolean().default(false) }).strict();

export interface ConsoleStream {
  write(chunk: string): unknown;
  isTTY?: boolean;
}

function roundSummary(round: Round): string {
  const counts = new Map<string, number>();
  for (const t of round.tests) counts.set(t.status, (counts.get(t.status) ?? 0) + 1);
  const parts = [...counts].map(([status, n]) => `${n} ${status}`);
  if (round.diagnostics.some((d) => d.severity === 'error'))
    parts.push(`${round.diagnostics.filter((d) => d.severity === 'error').length} build/collection error(s)`);
  if (round.error) parts.push(`error: ${round.error.split('\n')[0]}`);
  return `${parts.join(', ') || 'no tests'} (${(round.durationMs / 1000).toFixed(1)}s)`;
}

/**
 * Progress for humans. On a TTY, a live status line per event stream (tests counted as they
 * finish); elsewhere (CI, pipes) plain lines only, so logs stay readable.
 */
export function consoleReporter(
  options: Record<string, unknown> = {},
  stream: ConsoleStream = process.stderr,
  env: NodeJS.ProcessEnv = process.env,
): Reporter {
  const { verbose } = ConsoleOptionsSchema.parse(options);
  const live = Boolean(stream.isTTY) && !env.CI;
  const tally = new Map<string, { passed: number; failed: number }>();
  let statusShown = false;

  const clearStatus = (): void => {
    if (live && statusShown) stream.write('\r\x1b[2K');
    statusShown = false;
  };
  const line = (text: string): void => {
    clearStatus();
    stream.write(`${text}\n`);
  };

  return {
    name: 'suture:console',
    apiVersion: API_VERSION,
    onRunStart(e) {
      line(
        `suture ${e.mode === 'fix' ? 'run --fix' : e.mode === 'no-heal' ? 'run --no-heal' : 'run'}: ${e.projects.length} project(s) [${e.projects.join(', ')}]`,
      );
    },
    onProjectStart(e) {
      tally.set(e.project, { passed: 0, failed: 0 });
      line(`▶ ${e.project}: running ${e.runner}`);
    },
    onTestResult(e) {
      const t = tally.get(e.project) ?? { passed: 0, failed: 0 };
      if (e.test.status === 'passed') t.passed++;
      else if (e.test.status !== 'skipped') t.failed++;
      tally.set(e.project, t);
      if (e.test.status !== 'passed' && e.test.status !== 'skipped' && verbose)
        line(`  ✗ ${e.project} ${e.test.id}`);
      if (live) {
        const text = [...tally].map(([p, c]) => `${p}: ${c.passed} passed, ${c.failed} failed`).join(' | ');
        stream.write(`\r\x1b[2K${text.slice(0, 200)}`);
        statusShown = true;
      }
    },
    onRoundEnd(e) {
      line(`  ${e.project}: ${e.round.kind} run: ${roundSummary(e.round)}`);
    },
    onAttemptStart(e) {
      line(`  ${e.project}: attempt ${e.attempt} on "${e.failure.title}" with ${e.fixer}`);
    },
    onAttemptEnd(e) {
      const a = e.attempt;
      const why = a.reason ? `: ${a.reason.split('\n')[0]}` : '';
      const flag = a.expectationChanged ? ' (expectation changed)' : '';
      line(`  ${e.project}: attempt ${a.attempt} ${a.verdict}${flag}${why}`);
    },
    onProjectEnd(e) {
      const p = e.project;
      const detail = p.error
        ? `: ${p.error.split('\n')[0]}`
        : ` (${p.totals.healed} healed, ${p.totals.stillFailing} still failing, ${p.totals.bugs} bug(s), ${p.totals.flaky} flaky)`;
      line(`■ ${p.name}: ${p.status}${detail}`);
      for (const f of p.failures) {
        const where = f.failure.location
          ? ` [${f.failure.location.file}${f.failure.location.line ? `:${f.failure.location.line}` : ''}]`
          : '';
        line(
          `    ${f.outcome.padEnd(11)} ${f.failure.kind.padEnd(10)} ${f.failure.title}${where}${f.reason && f.outcome !== 'healed' ? ` — ${f.reason.split('\n')[0]}` : ''}`,
        );
      }
      for (const x of p.pluginErrors) line(`    plugin error: ${pluginErrorLine(x).split('\n')[0]}`);
    },
    onRunEnd(report, { runDir, root }) {
      const t = report.totals;
      line('');
      line(
        `${gateVerdict(report)}: ${t.tests} tests, ${t.failures} failure group(s), ${t.healed} healed, ${t.stillFailing} still failing, ${t.bugs} bug(s), ${t.flaky} flaky`,
      );
      if (t.llmCalls > 0) line(`LLM: ${usageLine(t)}`);
      for (const c of report.conflicts) line(`conflict: ${c.file}: ${c.reason}`);
      for (const e of report.pluginErrors) line(`plugin error: ${pluginErrorLine(e).split('\n')[0]}`);
      const shown = relative(process.cwd(), runDir) || runDir;
      line(`reports: ${shown.startsWith('..') ? runDir : shown}`);
      if (report.patch && report.mode === 'check')
        line(
          `validated heals were not applied (check mode): ${gitApplyCommand(root, join(runDir, 'fixes.patch'))}, or run with --fix`,
        );
    },
  };
}
