import type { GateReport, Totals } from '@suture/core';
import { withToken } from '../api.js';
import { cost, count, duration } from '../format.js';
import { Badge } from './badge.js';

export function verdictOf(report: Pick<GateReport, 'exitCode' | 'wouldBlock' | 'error' | 'cancelled'>): {
  value: string;
  label: string;
} {
  if (report.error) return { value: 'error', label: `error: ${report.error}` };
  if (report.cancelled) return { value: 'cancelled', label: 'cancelled' };
  if (report.wouldBlock) return { value: 'failed_after_repair', label: 'failures remain (not blocking)' };
  return report.exitCode === 0
    ? { value: 'green', label: 'green' }
    : { value: 'failed', label: 'failures remain' };
}

const COUNTERS: Array<[keyof Totals, string]> = [
  ['tests', 'tests'],
  ['passed', 'passed'],
  ['failed', 'failed'],
  ['failures', 'failure groups'],
  ['healed', 'healed'],
  ['stillFailing', 'still failing'],
  ['bugs', 'product bugs'],
  ['flaky', 'flaky'],
  ['llmCalls', 'LLM calls'],
];

export function TotalsList({ totals, label }: { totals: Totals; label: string }) {
  return (
    <dl class="counters" aria-label={label}>
      {COUNTERS.map(([key, name]) => (
        <div class={`counter counter-${key}`} key={key}>
          <dt>{name}</dt>
          <dd data-counter={key}>{count(totals[key])}</dd>
        </div>
      ))}
      <div class="counter counter-tokens">
        <dt>tokens in / out</dt>
        <dd data-counter="tokens">
          {count(totals.inputTokens)} / {count(totals.outputTokens)}
        </dd>
      </div>
      <div class="counter counter-cost">
        <dt>cost</dt>
        <dd data-counter="costUsd">{cost(totals.costUsd)}</dd>
      </div>
    </dl>
  );
}

export function ArtifactLinks({ names, base }: { names: readonly string[]; base: string }) {
  if (names.length === 0) return null;
  return (
    <nav class="artifacts" aria-label="Run files">
      {names.map((name) => (
        <a key={name} href={withToken(`${base}${name}`)}>
          {name}
        </a>
      ))}
    </nav>
  );
}

export function RunHeader({ report, nested }: { report: GateReport; nested?: boolean }) {
  const verdict = verdictOf(report);
  const Heading = nested ? 'h2' : 'h1';
  return (
    <header class="run-header">
      <Heading>
        {nested ? 'Report of run ' : 'suture run '}
        <span class="run-id">{report.runId}</span>
      </Heading>
      <p class="run-meta">
        <Badge value={verdict.value} label={verdict.label} />
        <span>mode: {report.mode}</span>
        <span>started {new Date(report.startedAt).toLocaleString('en')}</span>
        <span>took {duration(report.durationMs)}</span>
      </p>
    </header>
  );
}
