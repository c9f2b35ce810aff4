import { dirname, join, resolve } from 'node:path';
import { findConfigFile, loadConfig } from '@suture/core/internal';
import { UsageError } from '../exit.js';
import { loadReporterHtml, openInBrowser, untilInterrupted } from './ui-load.js';

export interface UiCommandFlags {
  config?: string;
  port?: number | string;
  open?: boolean;
}

function portOf(value: number | string | undefined): number {
  if (value === undefined) return 0;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new UsageError(`--port expects a port number from 0 to 65535, got "${String(value)}"`);
  return port;
}

/** `suture ui`: serve the earlier runs of `.suture/runs` (reports, files, trends) until Ctrl-C. */
export async function uiCommand(
  flags: UiCommandFlags,
  stream: NodeJS.WritableStream = process.stderr,
): Promise<number> {
  const port = portOf(flags.port);
  const file = flags.config ?? (await findConfigFile(process.cwd()));
  const loaded = file ? await loadConfig({ cwd: process.cwd(), file }) : undefined;
  const root = loaded?.dir ?? (file ? dirname(resolve(file)) : process.cwd());
  const runsDir = resolve(root, loaded?.config.outputDir ?? join('.suture', 'runs'));
  const { startDashboard } = await loadReporterHtml('suture ui');
  const dashboard = await startDashboard({ runsDir, port }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'EADDRINUSE')
      throw new UsageError(
        `--port ${port}: the port is in use; name another, or leave --port out for a free one`,
      );
    throw error;
  });
  stream.write(`suture ui: the runs of ${runsDir} at ${dashboard.url}\npress Ctrl-C to stop\n`);
  if (flags.open) openInBrowser(dashboard.url, stream);
  await untilInterrupted();
  await dashboard.close();
  return 0;
}
