import type { BootData } from '../shared/live.js';
import { LiveView } from './components/live-view.js';
import { ReportView } from './components/report-view.js';
import { RunsView } from './components/runs-view.js';

function SkipLink({ to, label }: { to: string; label: string }) {
  return (
    <a class="skip-link" href={`#${to}`}>
      {label}
    </a>
  );
}

export function App({ boot }: { boot: BootData }) {
  if (boot.mode === 'live')
    return (
      <>
        <SkipLink to="main" label="Skip to the run" />
        <LiveView />
      </>
    );
  if (boot.mode === 'browse' || !boot.report)
    return (
      <>
        <header class="run-header">
          <h1>suture runs</h1>
        </header>
        <main id="main">
          <RunsView />
        </main>
      </>
    );
  return (
    <>
      <SkipLink to="failures" label="Skip to the failures" />
      <ReportView report={boot.report} artifacts={boot.artifacts ?? []} base={boot.artifactBase ?? ''} />
    </>
  );
}
