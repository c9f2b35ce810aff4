import type { FailureReport } from '@suture/core';
import { useState } from 'preact/hooks';
import { domId, plural, where } from '../format.js';
import { AttemptItem } from './attempt-item.js';
import { Badge } from './badge.js';
import { ScopeList } from './scope-list.js';

function BugBox({ report }: { report: FailureReport }) {
  const bug = report.bug;
  if (!bug) return null;
  return (
    <div class="bug" role="note" aria-label="Product bug">
      <h4>Product bug: {bug.summary}</h4>
      <dl>
        <dt>expected</dt>
        <dd>
          <code>{bug.expected}</code>
        </dd>
        <dt>actual</dt>
        <dd>
          <code>{bug.actual}</code>
        </dd>
        {bug.file ? (
          <>
            <dt>where</dt>
            <dd>
              <code>
                {bug.file}
                {bug.symbol ? ` (${bug.symbol})` : ''}
              </code>
            </dd>
          </>
        ) : null}
      </dl>
      <pre class="evidence">{bug.evidence}</pre>
    </div>
  );
}

/**
 * One failure group: a heading button that opens it (kind, outcome, title, location), then the
 * evidence, the tests it explains, the ranked scope and the attempts as a timeline.
 */
export function FailureGroup(props: { project: string; report: FailureReport; open: boolean }) {
  const { report } = props;
  const f = report.failure;
  const [open, setOpen] = useState(props.open);
  const id = domId('failure', f.id);
  const attempts = report.attempts;
  return (
    <article class={`failure outcome-${report.outcome}`} id={id} data-outcome={report.outcome}>
      <h3 class="failure-head">
        <button
          type="button"
          class="disclosure"
          aria-expanded={open}
          aria-controls={`${id}-body`}
          onClick={() => setOpen(!open)}
        >
          <Badge value={report.outcome} />
          <span class="kind">{f.kind}</span>
          <span class="failure-title">{f.title}</span>
          <span class="where">{where(f.location)}</span>
          <span class="project-name">{props.project}</span>
          <span class="attempt-count">{plural(attempts.length, 'attempt')}</span>
        </button>
      </h3>
      <div class="failure-body" id={`${id}-body`} hidden={!open}>
        {open ? (
          <>
            {report.reason ? <p class="outcome-reason">{report.reason}</p> : null}
            {report.broke?.length ? (
              <p class="broke">
                The heal broke:{' '}
                {report.broke.map((t) => (
                  <code key={t}>{t} </code>
                ))}
              </p>
            ) : null}
            <BugBox report={report} />
            <h4>Evidence</h4>
            <pre class="evidence">{f.evidence}</pre>
            {f.tests.length > 0 ? (
              <details class="tests-of-failure">
                <summary>{plural(f.tests.length, 'test')} explained by this failure</summary>
                <ul>
                  {f.tests.map((t) => (
                    <li key={t}>
                      <code>{t}</code>
                    </li>
                  ))}
                </ul>
              </details>
            ) : null}
            {report.scope ? <ScopeList scope={report.scope} /> : null}
            {attempts.length > 0 ? (
              <>
                <h4>Attempts</h4>
                <ol class="timeline">
                  {attempts.map((a) => (
                    <AttemptItem key={a.attempt} attempt={a} failureTitle={f.title} />
                  ))}
                </ol>
              </>
            ) : null}
          </>
        ) : null}
      </div>
    </article>
  );
}
