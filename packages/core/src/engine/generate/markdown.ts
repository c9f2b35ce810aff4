import type { AutoRunReport, CoverageCounts } from '../../api/contracts/autorun.js';
import { lineRanges } from './measure/model.js';

const pct = (covered: number, total: number): string =>
  total === 0 ? 'n/a' : `${((100 * covered) / total).toFixed(1)} % (${covered}/${total})`;

const counts = (c: CoverageCounts): string =>
  `lines ${pct(c.lines.covered, c.lines.total)}, branches ${pct(c.branches.covered, c.branches.total)}`;

const cell = (text: string): string => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

const VERDICT: Record<string, string> = {
  kept: 'kept',
  'does-not-compile': 'removed: does not compile',
  fails: 'removed: fails',
  flaky: 'removed: flaky',
  'no-coverage': 'removed: adds no coverage',
  'rolled-back': 'rolled back',
};

/** The auto-run report as Markdown: verdict per generated file, coverage, heals with diffs, rollback, audit. */
export function renderAutoRunMarkdown(report: AutoRunReport): string {
  const out: string[] = [];
  const { totals } = report;
  out.push(`# suture auto-run: ${report.project}`, '');
  out.push(
    `Target: ${report.target.map((t) => `\`${t}\``).join(', ')}. ` +
      `${totals.kept} of ${totals.generated} generated files kept, ${totals.healed} healed, ` +
      `${(report.durationMs / 1000).toFixed(1)} s, ${totals.llmCalls} LLM calls, $${totals.costUsd.toFixed(4)}.`,
    '',
  );
  if (report.error) out.push(`**The run failed**: ${report.error}. Everything it wrote was taken back.`, '');
  out.push(`Coverage (${report.settings.coverageTool}) before: ${counts(report.coverage.before)}`, '');
  out.push(`Coverage after: ${counts(report.coverage.after)}`, '');
  if (report.coverage.uncoveredAfter.length)
    out.push(
      `Still uncovered: ${report.coverage.uncoveredAfter.map((u) => `\`${u.file}\` ${lineRanges(u.lines)}`).join('; ')}`,
      '',
    );
  out.push(
    `Filter: builds after at most ${report.settings.maxFixAttempts} heals, passes ${report.settings.flakeRuns} runs in a row, raises coverage; rollback: ${report.settings.rollback}.`,
    '',
  );
  out.push(
    '| file | generation | verdict | why | heals | runs | time |',
    '| --- | --- | --- | --- | --- | --- | --- |',
  );
  for (const t of report.tests)
    out.push(
      `| \`${t.file}\` | ${t.generation} | ${VERDICT[t.verdict] ?? t.verdict} | ${cell(t.reason)} | ${t.attempts.length} | ${t.runs.join(', ') || '-'} | ${(t.durationMs / 1000).toFixed(1)} s |`,
    );
  out.push('');
  const healed = report.tests.filter((t) => t.attempts.length);
  if (healed.length) {
    out.push('## Heals', '');
    for (const t of healed)
      for (const a of t.attempts) {
        out.push(`### \`${t.file}\`: attempt ${a.attempt} by ${a.fixer}: ${a.verdict}`, '');
        if (a.reason) out.push(cell(a.reason), '');
        if (a.diff) out.push('```diff', a.diff.trimEnd(), '```', '');
      }
  }
  if (report.generations.length) {
    out.push('## Generations', '');
    for (const g of report.generations)
      out.push(
        `- attempt ${g.attempt} by ${g.source}: ${cell(g.summary)}${g.uncoveredGiven.length ? ` (given uncovered lines: ${g.uncoveredGiven.map((u) => `${u.file} ${lineRanges(u.lines)}`).join('; ')})` : ''}`,
      );
    out.push('');
  }
  const rb = report.rollback;
  out.push('## Rollback', '');
  out.push(
    `Strategy ${rb.strategy}: ${rb.restored.length} files restored, ${rb.left.length} left in place.`,
    '',
  );
  for (const i of rb.instructions) out.push(`- ${i}`);
  for (const c of rb.conflicts) out.push(`- conflict: \`${c.file}\`: ${c.reason}`);
  out.push('', '## Audit', '');
  for (const a of report.audit)
    out.push(
      a.kind === 'command'
        ? `- ${a.at} run \`${a.command}\` (exit ${a.exitCode ?? 'none'}, ${a.durationMs} ms): ${a.purpose}`
        : `- ${a.at} ${a.kind} \`${a.file}\`: ${a.purpose}`,
    );
  return `${out.join('\n')}\n`;
}
