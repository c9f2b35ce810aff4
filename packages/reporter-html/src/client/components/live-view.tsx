import { useEffect, useRef, useState } from 'preact/hooks';
import type { LiveMessage } from '../../shared/live.js';
import { withToken } from '../api.js';
import { applyMessage, initialLiveState, serverGone, type LiveState } from '../live-state.js';
import { LiveAttempts } from './live-attempts.js';
import { LiveLog } from './live-log.js';
import { LiveProjectCard } from './live-project.js';
import { ReportView } from './report-view.js';
import { RunsView } from './runs-view.js';

/**
 * Follows the server's event stream. Messages are folded as they come and drawn at most once a
 * frame: a suite reports thousands of tests in a few seconds.
 */
function useLiveState(): [LiveState, string[]] {
  const state = useRef(initialLiveState());
  const [, setFrame] = useState(0);
  const [artifacts, setArtifacts] = useState<string[]>([]);
  useEffect(() => {
    const source = new EventSource(withToken('/api/events'));
    let pending = 0;
    const draw = (): void => {
      pending = 0;
      setFrame((n) => n + 1);
    };
    source.onmessage = (event: MessageEvent<string>) => {
      const message = JSON.parse(event.data) as LiveMessage;
      state.current = applyMessage(state.current, message);
      if (message.type === 'run-end') {
        // the run is over: the server closes the stream, which must not read as a lost connection
        source.close();
        setArtifacts(message.artifacts);
      }
      if (!pending) pending = requestAnimationFrame(draw);
    };
    // The server lives as long as the run: once its stream fails, nothing will answer again, and an
    // EventSource left open would retry every few seconds for as long as the tab stays open.
    source.onerror = () => {
      source.close();
      state.current = serverGone(state.current);
      draw();
    };
    return () => source.close();
  }, []);
  return [state.current, artifacts];
}

function Elapsed({ since, running }: { since: string | undefined; running: boolean }) {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    if (!running) return undefined;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [running]);
  if (!since) return null;
  return <span class="elapsed">{Math.max(0, Math.round((now - Date.parse(since)) / 1000))} s</span>;
}

const STATUS_TEXT: Record<LiveState['status'], string> = {
  connecting: 'connecting…',
  running: 'running',
  cancelling: 'cancelling: stopping the tests and restoring the tree',
  finished: 'finished',
  ended: 'the run ended: suture is no longer running',
};

export function LiveView() {
  const [state, artifacts] = useLiveState();
  const [cancelError, setCancelError] = useState<string | undefined>();
  const running = state.status === 'running';
  const cancel = (): void => {
    fetch(withToken('/api/cancel'), { method: 'POST' })
      .then((res) => {
        if (!res.ok) setCancelError(`cancel refused: ${res.status}`);
      })
      .catch((e: unknown) => setCancelError(String(e)));
  };
  return (
    <>
      <header class="run-header live-header">
        <h1>
          suture run <span class="run-id">{state.runId ?? ''}</span>
        </h1>
        <p class="run-meta">
          <span role="status" class={`live-status live-${state.status}`} data-status={state.status}>
            {STATUS_TEXT[state.status]}
          </span>
          {state.mode ? <span>mode: {state.mode}</span> : null}
          <Elapsed since={state.startedAt} running={running} />
          <button type="button" class="cancel" onClick={cancel} disabled={!running}>
            Cancel run
          </button>
          {cancelError ? <span role="alert">{cancelError}</span> : null}
        </p>
      </header>
      <main id="main">
        <section id="live-projects" aria-labelledby="live-projects-heading">
          <h2 id="live-projects-heading">Progress</h2>
          <div class="projects">
            {state.projects.map((p) => (
              <LiveProjectCard key={p.name} project={p} />
            ))}
          </div>
        </section>
        <LiveAttempts attempts={state.attempts} />
        <LiveLog lines={state.log} />
        {state.report ? (
          <section id="final" aria-label="Final report">
            <ReportView
              report={state.report}
              artifacts={artifacts}
              base={`/runs/${encodeURIComponent(state.report.runId)}/`}
              nested
            />
          </section>
        ) : null}
        <RunsView reload={state.report?.runId} />
      </main>
    </>
  );
}
