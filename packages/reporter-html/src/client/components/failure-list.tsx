import type { FailureReport, GateReport } from '@suture/core';
import { useMemo, useState } from 'preact/hooks';
import { count } from '../format.js';
import { FailureGroup } from './failure-group.js';

interface Row {
  project: string;
  report: FailureReport;
}

const FILTERS: Array<[string, string, (r: FailureReport) => boolean]> = [
  ['all', 'All', () => true],
  ['healed', 'Healed', (r) => r.outcome === 'healed'],
  ['failing', 'Still failing', (r) => ['unfixable', 'exhausted', 'reverted'].includes(r.outcome)],
  ['bugs', 'Product bugs', (r) => r.outcome === 'product-bug'],
  ['flaky', 'Flaky', (r) => r.outcome === 'flaky'],
  ['expectation', 'Expectation changed', (r) => r.attempts.some((a) => a.expectationChanged)],
];

/** Past this many groups they start closed, so the first paint stays quick. */
const OPEN_UP_TO = 20;
const PAGE = 100;

export function FailureList({ report }: { report: GateReport }) {
  const rows = useMemo<Row[]>(
    () => report.projects.flatMap((p) => p.failures.map((f) => ({ project: p.name, report: f }))),
    [report],
  );
  const [filter, setFilter] = useState('all');
  const [shown, setShown] = useState(PAGE);
  const test = FILTERS.find(([key]) => key === filter)![2];
  const visible = rows.filter((r) => test(r.report));
  return (
    <section id="failures" aria-labelledby="failures-heading" tabIndex={-1}>
      <h2 id="failures-heading">Failures ({count(rows.length)})</h2>
      {rows.length === 0 ? (
        <p>No test failed.</p>
      ) : (
        <>
          <div class="filters" role="group" aria-label="Show failures">
            {FILTERS.map(([key, label, fn]) => {
              const n = rows.filter((r) => fn(r.report)).length;
              if (key !== 'all' && n === 0) return null;
              return (
                <button
                  key={key}
                  type="button"
                  aria-pressed={filter === key}
                  onClick={() => {
                    setFilter(key);
                    setShown(PAGE);
                  }}
                >
                  {label} ({count(n)})
                </button>
              );
            })}
          </div>
          <div class="failure-list">
            {visible.slice(0, shown).map((r) => (
              <FailureGroup
                key={`${r.project}/${r.report.failure.id}`}
                project={r.project}
                report={r.report}
                open={rows.length <= OPEN_UP_TO}
              />
            ))}
          </div>
          {visible.length > shown ? (
            <button type="button" class="more" onClick={() => setShown(shown + PAGE)}>
              Show {Math.min(PAGE, visible.length - shown)} more of {count(visible.length - shown)}
            </button>
          ) : null}
        </>
      )}
    </section>
  );
}
