import { useEffect, useState } from 'preact/hooks';
import type { RunSummary } from '../../shared/live.js';
import { withToken } from '../api.js';
import { cost, count, duration } from '../format.js';
import { Badge } from './badge.js';

const W = 240;
const H = 48;

/** A small line chart of one figure over the runs, oldest first; the table says the same in words. */
function Trend(props: { label: string; values: number[]; format: (n: number) => string }) {
  const { values } = props;
  if (values.length === 0) return null;
  const max = Math.max(...values, 0);
  const min = Math.min(...values, 0);
  const span = max - min || 1;
  const step = values.length > 1 ? W / (values.length - 1) : 0;
  const points = values.map((v, i) => `${(i * step).toFixed(1)},${(H - ((v - min) / span) * H).toFixed(1)}`);
  const last = values[values.length - 1]!;
  const summary = `${props.label}: last ${props.format(last)}, lowest ${props.format(Math.min(...values))}, highest ${props.format(max)} over ${values.length} run(s)`;
  return (
    <figure class="trend">
      <svg viewBox={`-4 -4 ${W + 8} ${H + 8}`} width={W + 8} height={H + 8} role="img" aria-label={summary}>
        <polyline points={points.join(' ')} fill="none" stroke="currentColor" stroke-width="2" />
        {values.length === 1 ? <circle cx="0" cy={H / 2} r="3" fill="currentColor" /> : null}
      </svg>
      <figcaption>
        {props.label}: <strong>{props.format(last)}</strong>
      </figcaption>
    </figure>
  );
}

const passRate = (r: RunSummary): number => (r.tests === 0 ? 0 : (r.passed / r.tests) * 100);

export function RunsTable({ runs }: { runs: readonly RunSummary[] }) {
  return (
    <table class="runs">
      <caption>Earlier runs, newest first</caption>
      <thead>
        <tr>
          <th scope="col">run</th>
          <th scope="col">started</th>
          <th scope="col">mode</th>
          <th scope="col">result</th>
          <th scope="col">tests</th>
          <th scope="col">pass rate</th>
          <th scope="col">healed</th>
          <th scope="col">still failing</th>
          <th scope="col">cost</th>
          <th scope="col">took</th>
        </tr>
      </thead>
      <tbody>
        {runs.map((r) => (
          <tr key={r.runId}>
            <td>
              <a href={withToken(`/runs/${encodeURIComponent(r.runId)}/`)}>{r.runId}</a>
            </td>
            <td>{new Date(r.startedAt).toLocaleString('en')}</td>
            <td>{r.mode}</td>
            <td>
              {r.cancelled ? (
                <Badge value="cancelled" label="cancelled" />
              ) : (
                <Badge value={r.exitCode === 0 ? 'green' : 'failed'} label={`exit ${r.exitCode}`} />
              )}
            </td>
            <td>{count(r.tests)}</td>
            <td>{passRate(r).toFixed(1)}%</td>
            <td>{count(r.healed)}</td>
            <td>{count(r.stillFailing)}</td>
            <td>{cost(r.costUsd)}</td>
            <td>{duration(r.durationMs)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Earlier runs from `.suture/runs` with their trends: pass rate, heals and cost per run. */
export function RunsView({ reload }: { reload?: unknown }) {
  const [runs, setRuns] = useState<RunSummary[] | undefined>();
  const [error, setError] = useState<string | undefined>();
  useEffect(() => {
    fetch(withToken('/api/runs'))
      .then(async (res) => {
        if (!res.ok) throw new Error(`${res.status} ${res.statusText}`);
        setRuns((await res.json()) as RunSummary[]);
      })
      .catch((e: unknown) => setError(String(e)));
  }, [reload]);
  const oldestFirst = [...(runs ?? [])].reverse();
  return (
    <section id="runs" aria-labelledby="runs-heading">
      <h2 id="runs-heading">Earlier runs</h2>
      {error ? <p role="alert">Could not list the runs: {error}</p> : null}
      {runs === undefined && !error ? <p>Loading…</p> : null}
      {runs?.length === 0 ? <p>No earlier run in .suture/runs.</p> : null}
      {runs && runs.length > 0 ? (
        <>
          <div class="trends">
            <Trend label="pass rate" values={oldestFirst.map(passRate)} format={(n) => `${n.toFixed(1)}%`} />
            <Trend label="heals" values={oldestFirst.map((r) => r.healed)} format={count} />
            <Trend label="cost" values={oldestFirst.map((r) => r.costUsd)} format={cost} />
          </div>
          <RunsTable runs={runs} />
        </>
      ) : null}
    </section>
  );
}
