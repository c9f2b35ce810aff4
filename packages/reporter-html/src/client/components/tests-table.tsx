import type { GateReport, TestResult } from '@suture/core';
import { useMemo, useState } from 'preact/hooks';
import { count, duration, firstLine } from '../format.js';
import { Badge } from './badge.js';

const PAGE = 100;

interface Row {
  project: string;
  test: TestResult;
}

/** Each project's last whole-suite run: the regression run when there was one, else the first. */
function finalTests(report: GateReport): Row[] {
  return report.projects.flatMap((p) => {
    const full = p.rounds.filter((r) => r.kind === 'initial' || r.kind === 'regression');
    const last = full[full.length - 1];
    return (last?.tests ?? []).map((test) => ({ project: p.name, test }));
  });
}

function FilesTable({ report }: { report: GateReport }) {
  if (report.files.length === 0) return null;
  return (
    <table class="files">
      <caption>Test files</caption>
      <thead>
        <tr>
          <th scope="col">project</th>
          <th scope="col">file</th>
          <th scope="col">tests</th>
          <th scope="col">failed</th>
          <th scope="col">attempts</th>
          <th scope="col">state</th>
        </tr>
      </thead>
      <tbody>
        {report.files.slice(0, 500).map((f) => (
          <tr key={`${f.project}/${f.file}`}>
            <td>{f.project}</td>
            <td>
              <code>{f.file}</code>
            </td>
            <td>{count(f.tests)}</td>
            <td>{count(f.failed)}</td>
            <td>{count(f.attempts)}</td>
            <td>
              <Badge value={f.state} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Every test of the final runs, searchable, a page at a time (a suite may have thousands). */
export function TestsSection({ report }: { report: GateReport }) {
  const rows = useMemo(() => finalTests(report), [report]);
  const [query, setQuery] = useState('');
  const [shown, setShown] = useState(PAGE);
  const q = query.trim().toLowerCase();
  const matching = q
    ? rows.filter((r) => `${r.project} ${r.test.id} ${r.test.status}`.toLowerCase().includes(q))
    : rows;
  return (
    <section id="tests" aria-labelledby="tests-heading">
      <h2 id="tests-heading">Tests ({count(rows.length)})</h2>
      <FilesTable report={report} />
      <label class="search">
        Find a test{' '}
        <input
          type="search"
          value={query}
          placeholder="id, project or status"
          onInput={(e) => {
            setQuery((e.target as HTMLInputElement).value);
            setShown(PAGE);
          }}
        />
      </label>
      <p class="match-count" aria-live="polite">
        {q ? `${count(matching.length)} matching` : `${count(rows.length)} tests`}
      </p>
      <table class="tests">
        <caption class="visually-hidden">Tests of the final runs</caption>
        <thead>
          <tr>
            <th scope="col">project</th>
            <th scope="col">test</th>
            <th scope="col">status</th>
            <th scope="col">time</th>
            <th scope="col">message</th>
          </tr>
        </thead>
        <tbody>
          {matching.slice(0, shown).map((r) => (
            <tr key={`${r.project}/${r.test.id}`}>
              <td>{r.project}</td>
              <td>
                <code>{r.test.id}</code>
              </td>
              <td>
                <Badge value={r.test.status} />
              </td>
              <td>{duration(r.test.durationMs)}</td>
              <td>{firstLine(r.test.message)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {matching.length > shown ? (
        <button type="button" class="more" onClick={() => setShown(shown + PAGE)}>
          Show {Math.min(PAGE, matching.length - shown)} more of {count(matching.length - shown)}
        </button>
      ) : null}
    </section>
  );
}
