import { appendFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { z } from 'zod';
import type {
  Attempt,
  FailureReport,
  GateReport,
  PluginErrorEntry,
  ProjectReport,
} from '../api/contracts/report.js';
import { API_VERSION, type Reporter } from '../api/plugin.js';
import { gitApplyCommand } from '../safety/patch.js';
import { allPluginErrors, pluginErrorLine } from './plugin-error-line.js';
import { undoneSection } from './undone-section.js';
import { fileSummarySection } from './markdown-files.js';
import { usageLine } from './usage-line.js';
import { gateVerdict } from './verdict.js';
import { outputPath, writeOutput } from './write-file.js';
import { isolationLine } from './isolation-line.js';
import { portableText, rootSpellings } from './portable.js';
import { repoLocation } from './repo-path.js';
import { changeBaseLine, selectionLine } from './selection-line.js';

const MarkdownOptionsSchema = z
  .object({ file: z.string().default('summary.md'), githubStepSummary: z.boolean().default(true) })
  .strict();

const STATUS_ICON: Record<ProjectReport['status'], string> = {
  completed: '✅',
  healed: '🩹',
  failed_after_repair: '⚠️',
  failed: '❌',
  cancelled: '⏹️',
};

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ').slice(0, 200);
}

function attemptRow(a: Attempt): string {
  const flag =
    (a.expectationChanged ? ' ⚠️ expectation changed' : '') +
    (a.unreadTests?.length ? ` ⚠️ unread by the guard: ${a.unreadTests.join(', ')}` : '');
  const reason =
    a.reason ??
    a.validation?.error ??
    (a.validation && !a.validation.passed ? `${a.validation.stillFailing.length} test(s) still failing` : '');
  const cost = a.usage && a.usage.costUsd > 0 ? `$${a.usage.costUsd.toFixed(4)}` : '';
  return `| ${a.attempt} | ${cell(a.fixer)} | ${a.verdict}${flag} | ${cell(reason)} | ${cost} |`;
}

function failureSection(f: FailureReport, report: GateReport, project: ProjectReport): string[] {
  const mode = report.mode;
  const where = f.failure.location
    ? ` at \`${repoLocation(report.root, project.root, f.failure.location)}\``
    : '';
  const lines = [
    `#### ${f.outcome}: ${cell(f.failure.title)}`,
    '',
    `Kind \`${f.failure.kind}\`${where}; ${f.failure.tests.length} test(s).`,
  ];
  if (f.outcome === 'healed' && mode === 'check')
    lines.push(
      '',
      'Still failing in the tree: **validated fix available** in `fixes.patch` (check mode applies nothing).',
    );
  if (f.reason) lines.push('', `Reason: ${f.reason}`);
  if (f.broke?.length) lines.push('', `Broke: ${f.broke.map((t) => `\`${t}\``).join(', ')}.`);
  if (f.attempts.some((a) => a.expectationChanged && a.verdict === 'healed')) {
    lines.push('', '> ⚠️ **Expectation changed**: the heal edits an expected value in a test. Review it.');
  }
  if (f.bug) {
    lines.push(
      '',
      `**Product bug**: ${f.bug.summary}`,
      '',
      `- expected: ${cell(f.bug.expected)}`,
      `- actual: ${cell(f.bug.actual)}`,
    );
  }
  if (f.attempts.length > 0) {
    lines.push(
      '',
      '| # | fixer | verdict | reason | cost |',
      '|---|---|---|---|---|',
      ...f.attempts.map(attemptRow),
    );
    const healed = f.attempts.find((a) => a.verdict === 'healed' && a.diff);
    if (healed?.diff) {
      lines.push(
        '',
        '<details><summary>Patch</summary>',
        '',
        '```diff',
        healed.diff.trimEnd(),
        '```',
        '',
        '</details>',
      );
    }
  }
  return [...lines, ''];
}

function pluginErrorSection(heading: string, errors: readonly PluginErrorEntry[]): string[] {
  return [heading, '', ...errors.map((e) => `- ${pluginErrorLine(e).replace(/\r?\n/g, ' ')}`), ''];
}

/**
 * Renders the gate's Markdown summary: per-project table, then every project's plugin errors and
 * failures with their attempts, then the reporters that failed.
 */
export function renderMarkdown(report: GateReport): string {
  const t = report.totals;
  const broken = allPluginErrors(report).length;
  const lines = [
    `## suture: ${gateVerdict(report)} (${report.mode} mode)`,
    '',
    '| project | status | tests | failed | healed | still failing | bugs | flaky |',
    '|---|---|---|---|---|---|---|---|',
    ...report.projects.map(
      (p) =>
        `| ${cell(p.name)} | ${STATUS_ICON[p.status]} ${p.status} | ${p.totals.tests} | ${p.totals.failed} | ${p.totals.healed} | ${p.totals.stillFailing} | ${p.totals.bugs} | ${p.totals.flaky} |`,
    ),
    '',
    `Totals: ${t.tests} tests, ${t.failures} failure group(s), ${t.healed} healed, ${t.stillFailing} still failing, ${t.bugs} product bug(s), ${t.flaky} flaky${t.quarantined > 0 ? `, ${t.quarantined} quarantined` : ''}${broken > 0 ? `, ${broken} plugin error(s)` : ''}; LLM: ${usageLine(t)}.`,
    '',
  ];
  const isolation = isolationLine(report);
  if (isolation) lines.push(isolation, '');
  if (report.selection)
    lines.push(
      `${changeBaseLine(report.selection)}:`,
      '',
      ...report.projects
        .filter((p) => p.selection)
        .map((p) => `- ${cell(p.name)}: ${selectionLine(p.selection!)}`),
      '',
    );
  for (const p of report.projects) {
    const corrected = p.rounds.filter((r) => r.statusCorrected);
    if (!p.error && p.failures.length === 0 && p.pluginErrors.length === 0 && corrected.length === 0)
      continue;
    lines.push(`### ${p.name}`, '');
    if (p.error) lines.push(`Error: ${p.error}`, '');
    // a runner's passed that its own results contradict: the reviewer sees why the run is not green
    for (const r of corrected)
      lines.push(
        `Status corrected, the ${r.kind} run counts as ${r.status}: ${r.statusCorrected!.reason}`,
        '',
      );
    if (p.pluginErrors.length > 0) lines.push(...pluginErrorSection('#### Plugin errors', p.pluginErrors));
    for (const f of p.failures) lines.push(...failureSection(f, report, p));
  }
  if (report.pluginErrors.length > 0)
    lines.push(...pluginErrorSection('### Plugin errors', report.pluginErrors));
  lines.push(...undoneSection(report));
  lines.push(...fileSummarySection(report));
  if (report.conflicts.length > 0) {
    lines.push('### Conflicts', '', ...report.conflicts.map((c) => `- \`${c.file}\`: ${c.reason}`), '');
  }
  if (report.patch && report.mode === 'check') {
    const command = report.runDir
      ? gitApplyCommand(report.root, join(report.runDir, 'fixes.patch'), report.root)
      : 'git apply .suture/runs/<id>/fixes.patch';
    lines.push(
      `The validated heals were not applied (check mode). Apply them from \`${basename(report.root)}/\` with \`${command}\`, or run with \`--fix\`.`,
      '',
    );
  }
  return lines.join('\n');
}

/** Writes `summary.md`, and appends it to `$GITHUB_STEP_SUMMARY` when that is set. */
export function markdownReporter(
  options: Record<string, unknown> = {},
  env: NodeJS.ProcessEnv = process.env,
): Reporter {
  const { file, githubStepSummary } = MarkdownOptionsSchema.parse(options);
  return {
    name: 'suture:markdown',
    apiVersion: API_VERSION,
    async onRunEnd(report, { runDir, root }) {
      // the git apply line is worked out from the real paths; the file names none of them
      const text = portableText(rootSpellings(root))(renderMarkdown(report));
      await writeOutput(outputPath(runDir, file), text);
      const summary = env.GITHUB_STEP_SUMMARY;
      if (githubStepSummary && summary) await appendFile(summary, `${text}\n`);
    },
  };
}
