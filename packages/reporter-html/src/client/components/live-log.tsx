import type { LogLine } from '../live-state.js';

export function LiveLog({ lines }: { lines: readonly LogLine[] }) {
  return (
    <section id="log" aria-labelledby="log-heading">
      <h2 id="log-heading">Log</h2>
      <div class="log" role="log" tabIndex={0} aria-label="Log of the run">
        {lines.map((l) => (
          <div key={l.seq} class={`log-line log-${l.level}`}>
            <time dateTime={l.at}>{l.at.slice(11, 19)}</time> {l.message}
          </div>
        ))}
      </div>
    </section>
  );
}
