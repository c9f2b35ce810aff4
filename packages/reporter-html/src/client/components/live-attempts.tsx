import { duration } from '../format.js';
import type { LiveAttempt } from '../live-state.js';
import { Badge } from './badge.js';

/** Attempts in the order they started; a running one says so until its verdict arrives. */
export function LiveAttempts({ attempts }: { attempts: readonly LiveAttempt[] }) {
  return (
    <section id="live-attempts" aria-labelledby="live-attempts-heading">
      <h2 id="live-attempts-heading">Attempts ({attempts.length})</h2>
      {attempts.length === 0 ? <p>No attempt yet.</p> : null}
      <ol class="live-attempts">
        {attempts.map((a) => (
          <li key={a.key} class="live-attempt" data-verdict={a.record?.verdict ?? 'running'}>
            <span class="project-name">{a.project}</span> <span class="kind">{a.kind}</span>{' '}
            <span class="failure-title">{a.title}</span> · attempt {a.attempt} with{' '}
            <span class="fixer">{a.fixer}</span>{' '}
            {a.record ? (
              <>
                <Badge value={a.record.verdict} /> {duration(a.record.durationMs)}
              </>
            ) : (
              <Badge value="running" label="running…" />
            )}
          </li>
        ))}
      </ol>
    </section>
  );
}
