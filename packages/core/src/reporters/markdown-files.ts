import type { FileState, FileSummary } from '../api/contracts/file-summary.js';
import type { GateReport } from '../api/contracts/report.js';
import { NO_FILE, summarizeFiles } from '../report/file-summary.js';
import { repoPath } from './repo-path.js';

const STATE_ICON: Record<FileState, string> = {
  passed: '✅',
  healed: '🩹',
  flaky: '🎲',
  failing: '❌',
  skipped: '⏭️',
};

/** Passing files beyond this many are counted, not listed: a big suite's summary stays readable. */
const MAX_PASSING_ROWS = 50;

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ').slice(0, 200);
}

function row(f: FileSummary, report: GateReport): string {
  const errors = f.errors.map((e) => `${e.kind}: ${cell(e.message)} (${e.outcome})`).join('<br>');
  // repository-relative: two projects' `index.test.js` are two rows that say which is which
  const root = report.projects.find((p) => p.name === f.project)?.root;
  const where =
    root && f.file !== NO_FILE
      ? `\`${cell(repoPath(report.root, root, f.file))}\``
      : `${cell(f.project)}: \`${f.file}\``;
  return `| ${where} | ${STATE_ICON[f.state]} ${f.state} | ${f.tests} | ${f.failed} | ${errors} | ${f.rounds} | ${f.attempts} |`;
}

/**
 * The "Test files" section of the Markdown summary: one row per test file with what failed, what
 * it was, how many runs and attempts it took and how it ended. Files with a failure come first.
 */
export function fileSummarySection(report: GateReport): string[] {
  const files = summarizeFiles(report);
  if (files.length === 0) return [];
  const troubled = files.filter((f) => f.failed > 0 || f.errors.length > 0);
  const quiet = files.filter((f) => f.failed === 0 && f.errors.length === 0);
  const shown = quiet.slice(0, MAX_PASSING_ROWS);
  const lines = [
    '### Test files',
    '',
    '| file | state | tests | failed | errors | runs | attempts |',
    '|---|---|---|---|---|---|---|',
    ...[...troubled, ...shown].map((f) => row(f, report)),
    '',
  ];
  if (quiet.length > shown.length)
    lines.push(`${quiet.length - shown.length} more file(s) passed or were skipped.`, '');
  return lines;
}
