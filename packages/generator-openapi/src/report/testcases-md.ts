import type { Edge } from '../plan/dependencies.js';
import type { TestCase } from '../plan/case-types.js';
import type { TestOutcome } from './outcomes.js';

export type Mode = 'interface' | 'business' | 'complete';

export interface CaseTotals {
  cases: number;
  passed: number;
  bugs: number;
  failing: number;
  notRun: number;
  healed: number;
}

const MARK = { passed: '✅', bug: '🐛', failing: '❌', 'not-run': '⏭' } as const;

const cell = (s: string): string => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

export function caseTotals(
  cases: readonly TestCase[],
  outcomes: ReadonlyMap<string, TestOutcome>,
): CaseTotals {
  const totals: CaseTotals = { cases: cases.length, passed: 0, bugs: 0, failing: 0, notRun: 0, healed: 0 };
  for (const c of cases) {
    const o = outcomes.get(`${c.file}::${c.test}`);
    const status = o?.status ?? 'not-run';
    if (status === 'passed') totals.passed++;
    else if (status === 'bug') totals.bugs++;
    else if (status === 'failing') totals.failing++;
    else totals.notRun++;
    if (o && o.heals > 0) totals.healed++;
  }
  return totals;
}

export interface TestcasesInput {
  title: string;
  mode: Mode;
  cases: readonly TestCase[];
  outcomes: ReadonlyMap<string, TestOutcome>;
  edges: readonly Edge[];
  order: readonly string[];
  durationMs: number;
  /** Why nothing ran, when nothing did (an unreachable service). */
  notRunReason?: string;
}

/** testcases.md: totals, a table per endpoint (id, scenario, result, script, heals), and the dependency plan. */
export function renderTestcases(input: TestcasesInput): string {
  const t = caseTotals(input.cases, input.outcomes);
  const lines = [
    `# Test cases: ${input.title}`,
    '',
    `Mode: **${input.mode}**. ${t.cases} cases: ✅ ${t.passed} passed, 🐛 ${t.bugs} product bugs (bug_report.json), ❌ ${t.failing} failing${t.notRun ? `, ⏭ ${t.notRun} not run` : ''}; ${t.healed} healed by suture; ${(input.durationMs / 1000).toFixed(1)} s.`,
    '',
  ];
  if (input.notRunReason) lines.push(`Nothing ran: ${input.notRunReason}`, '');
  lines.push(
    '✅ passed (after healing, when the heals column says so) · 🐛 the service breaks the document or a rule: a product bug, the test stays failing · ❌ still failing · ⏭ not run',
    '',
  );
  const byApi = new Map<string, TestCase[]>();
  for (const c of input.cases) byApi.set(c.api, [...(byApi.get(c.api) ?? []), c]);
  for (const [api, cases] of byApi) {
    const ops = [...new Set(cases.map((c) => c.operation))].join(', ');
    lines.push(
      `## ${api} (${ops})`,
      '',
      '| id | scenario | result | script | heals |',
      '| --- | --- | --- | --- | --- |',
    );
    for (const c of cases) {
      const o = input.outcomes.get(`${c.file}::${c.test}`);
      const mark = MARK[o?.status ?? 'not-run'];
      const heals = o ? `${o.heals}${o.expectationChanged ? ' (expectation changed)' : ''}` : '0';
      lines.push(`| ${c.id} | ${cell(c.scenario)} | ${mark} | \`${c.file}::${c.test}\` | ${heals} |`);
    }
    lines.push('');
  }
  lines.push(
    '## Dependencies',
    '',
    `Order: ${input.order.join(' → ')}`,
    '',
    '| from | to | via | kind | confidence | why |',
    '| --- | --- | --- | --- | --- | --- |',
    ...input.edges.map(
      (e) =>
        `| ${e.from} | ${e.to} | ${e.via ? `${e.via.in}.${e.via.name} ← ${e.resource}.${e.via.field}` : '(order only)'} | ${e.kind} | ${e.confidence.toFixed(2)} | ${cell(e.reason)} |`,
    ),
    '',
  );
  return lines.join('\n');
}
