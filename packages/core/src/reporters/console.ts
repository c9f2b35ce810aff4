import { join, relative } from 'node:path';
import { z } from 'zod';
import type { Round } from '../api/contracts/report.js';
import { gitApplyCommand } from '../safety/patch.js';
import { pluginErrorLine } from './plugin-error-line.js';
import { repoLocation } from './repo-path.js';
import { changeBaseLine, selectionLine } from './selection-line.js';
import { usageLine } from './usage-line.js';
import { colourEnabled, palette, toneOf } from './console-colour.js';
import { previousTestCounts } from './console-estimate.js';
import { LiveRegion } from './console-live.js';
import {
  countTest,
  done,
  newProgress,
  plainProgressLine,
  progressLine,
  type ProjectProgress,
} from './console-progress.js';
import { gateVerdict } from './verdict.js';
import { API_VERSION, type Reporter } from '../api/plugin.js';

const ConsoleOptionsSchema = z
  .object({
    verbose: z.boolean().default(false),
    /** Without the live view (CI, pipes): how often a running project's counts are printed; 0: never. */
    progressIntervalMs: z.number().int().nonnegative().default(10_000),
  })
  .strict();

export interface ConsoleStream {
  write(chunk: string): unknown;
  isTTY?: boolean;
  /** Terminal width, when the stream is a terminal. */
  columns?: number;
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

/** Every test for the first 50 of a run, then each 2% of it: a big suite must not flood the terminal. */
function worthDrawing(n: number, expected: number | undefined): boolean {
  return n <= 50 || n % Math.max(1, Math.ceil((expected ?? 2500) / 50)) === 0;
}

/**
 * Progress for humans. On a TTY (and not in CI), a live block at the bottom with a line per
 * running project: tests done of the last run's count, and the attempt under way; the lines of
 * what happened scroll above it. Elsewhere (CI, pipes) plain lines only, so logs stay readable,
 * and every `progressIntervalMs` a line with the counts of each project whose tests are running,
 * so a long suite shows it is alive. Colour where the terminal shows it (NO_COLOR and FORCE_COLOR
 * respected).
 */
export function consoleReporter(
  options: Record<string, unknown> = {},
  stream: ConsoleStream = process.stderr,
  env: NodeJS.ProcessEnv = process.env,
): Reporter {
  const { verbose, progressIntervalMs } = ConsoleOptionsSchema.parse(options);
  const live = Boolean(stream.isTTY) && !env.CI;
  const c = palette(colourEnabled(stream, env));
  const region = new LiveRegion(stream);
  const running = new Map<string, ProjectProgress>();
  let expected = new Map<string, number>();
  // locations are printed repository-relative, as the patch names files
  let repoRoot = process.cwd();
  let trailing: ReturnType<typeof setTimeout> | undefined;
  /** When each project started, for the plain progress lines. */
  const startedAt = new Map<string, number>();
  let ticker: ReturnType<typeof setInterval> | undefined;
  const tick = (): void => {
    for (const p of running.values())
      if (!p.closed && (done(p) > 0 || p.attempt))
        line(`  ${plainProgressLine(p, Date.now() - (startedAt.get(p.name) ?? Date.now()))}`);
  };
  const stopTicker = (): void => {
    if (running.size > 0) return;
    clearInterval(ticker);
    ticker = undefined;
  };

  const draw = (): void => {
    if (trailing) clearTimeout(trailing);
    trailing = undefined;
    if (live) region.draw([...running.values()].map((p) => progressLine(p, c)));
  };
  const line = (text: string): void => {
    if (live) region.clear();
    stream.write(`${text}\n`);
    draw();
  };

  return {
    name: 'suture:console',
    apiVersion: API_VERSION,
    async onRunStart(e) {
      repoRoot = e.root;
      if (live) expected = await previousTestCounts(e.runDir);
      line(
        `${c.bold('suture')} ${e.mode === 'fix' ? 'run --fix' : e.mode === 'no-heal' ? 'run --no-heal' : 'run'}: ${e.projects.length} project(s) [${e.projects.join(', ')}]`,
      );
    },
    onProjectStart(e) {
      running.set(e.project, newProgress(e.project, expected.get(e.project)));
      startedAt.set(e.project, Date.now());
      if (!live && progressIntervalMs > 0) ticker ??= setInterval(tick, progressIntervalMs).unref();
      line(`▶ ${c.bold(e.project)}: running ${e.runner}`);
    },
    onTestResult(e) {
      const p = running.get(e.project) ?? newProgress(e.project);
      running.set(e.project, p);
      countTest(p, e.test.status);
      if (e.test.status !== 'passed' && e.test.status !== 'skipped' && verbose)
        line(`  ${c.red('✗')} ${e.project} ${e.test.id}`);
      if (!live) return;
      if (worthDrawing(done(p), p.expected)) draw();
      // a skipped redraw is made up soon after, so the last counts always show
      else trailing ??= setTimeout(draw, 100).unref();
    },
    onRoundEnd(e) {
      const p = running.get(e.project);
      if (p) p.closed = true;
      line(`  ${e.project}: ${e.round.kind} run: ${roundSummary(e.round)}`);
    },
    onAttemptStart(e) {
      const p = running.get(e.project);
      const what = `attempt ${e.attempt} on "${e.failure.title}" with ${e.fixer}`;
      if (p) {
        // the validation run re-runs the group's tests (all of them for a group that stops the suite)
        Object.assign(p, newProgress(e.project, e.failure.tests.length || undefined), { attempt: what });
      }
      line(`  ${e.project}: ${what}`);
    },
    onAttemptEnd(e) {
      const a = e.attempt;
      const p = running.get(e.project);
      if (p) delete p.attempt;
      const why = a.reason ? `: ${a.reason.split('\n')[0]}` : '';
      const flag =
        (a.expectationChanged ? c.yellow(' (expectation changed)') : '') +
        (a.unreadTests?.length ? c.yellow(` (unread by the guard: ${a.unreadTests.join(', ')})`) : '');
      line(`  ${e.project}: attempt ${a.attempt} ${toneOf(a.verdict, c)(a.verdict)}${flag}${why}`);
    },
    onProjectEnd(e) {
      const p = e.project;
      running.delete(p.name);
      stopTicker();
      const detail = p.error
        ? `: ${p.error.split('\n')[0]}`
        : ` (${p.totals.healed} healed, ${p.totals.stillFailing} still failing, ${p.totals.bugs} bug(s), ${p.totals.flaky} flaky${p.totals.quarantined > 0 ? `, ${p.totals.quarantined} quarantined` : ''})`;
      line(`■ ${c.bold(p.name)}: ${toneOf(p.status, c)(p.status)}${detail}`);
      if (p.selection) line(c.dim(`    ${selectionLine(p.selection)}`));
      for (const f of p.failures) {
        const where = f.failure.location ? ` [${repoLocation(repoRoot, p.root, f.failure.location)}]` : '';
        line(
          `    ${toneOf(f.outcome, c)(f.outcome.padEnd(11))} ${f.failure.kind.padEnd(10)} ${f.failure.title}${where}${f.reason && f.outcome !== 'healed' ? c.dim(` — ${f.reason.split('\n')[0]}`) : ''}`,
        );
      }
      for (const x of p.pluginErrors) line(`    plugin error: ${pluginErrorLine(x).split('\n')[0]}`);
    },
    onRunEnd(report, { runDir, root }) {
      const t = report.totals;
      running.clear();
      stopTicker();
      line('');
      const verdict = gateVerdict(report);
      const shown = relative(process.cwd(), runDir) || runDir;
      const folder = shown.startsWith('..') ? runDir : shown;
      // check mode writes nothing: a heal is a fix the tree does not have yet, and its tests still fail
      const healed =
        report.mode === 'check' && t.healed > 0
          ? `${t.healed} still failing with a validated fix available (not applied: ${join(folder, 'fixes.patch')})`
          : `${t.healed} healed`;
      line(
        `${(report.exitCode === 0 && !report.wouldBlock ? c.green : c.red)(verdict)}: ${t.tests} tests, ${t.failures} failure group(s), ${healed}, ${t.stillFailing} still failing, ${t.bugs} bug(s), ${t.flaky} flaky${t.quarantined > 0 ? `, ${t.quarantined} quarantined` : ''}`,
      );
      if (report.selection) {
        const chosen = report.projects.filter((p) => p.selection);
        const selected = chosen.reduce((n, p) => n + p.selection!.selected, 0);
        const total = chosen.reduce((n, p) => n + p.selection!.total, 0);
        line(`${changeBaseLine(report.selection)}; ${selected} of ${total} tests selected`);
      }
      if (t.llmCalls > 0 || t.replayedAnswers > 0) line(`LLM: ${usageLine(t)}`);
      for (const x of report.conflicts) line(`conflict: ${x.file}: ${x.reason}`);
      for (const e of report.pluginErrors) line(`plugin error: ${pluginErrorLine(e).split('\n')[0]}`);
      line(`reports: ${folder}`);
      if (report.patch && report.mode === 'check')
        line(
          `validated heals were not applied (check mode): ${gitApplyCommand(root, join(runDir, 'fixes.patch'))}, or run with --fix`,
        );
    },
  };
}
