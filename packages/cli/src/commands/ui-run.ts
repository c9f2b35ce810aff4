import type { GateOptions } from '@suture/core/internal';
import type { Logger } from '@suture/core';
import { loadReporterHtml, openInBrowser, untilInterrupted } from './ui-load.js';

export interface UiFlags {
  /** `--ui`: serve the live dashboard of the run. */
  ui?: boolean;
  /** `--open`: open it in a browser. */
  open?: boolean;
}

export interface RunUi {
  /** Called once the gate returned (or threw): keeps the page up on a terminal until Ctrl-C, then stops it. */
  finish(): Promise<void>;
}

/** A logger that also writes to the page's log (info and up: debug is for the terminal only). */
function teeLogger(base: Logger, log: (level: 'info' | 'warn' | 'error', message: string) => void): Logger {
  return {
    debug: (m) => base.debug(m),
    info: (m) => (base.info(m), log('info', m)),
    warn: (m) => (base.warn(m), log('warn', m)),
    error: (m) => (base.error(m), log('error', m)),
  };
}

/**
 * `suture run --ui`: starts the dashboard on a free loopback port, prints its address, adds its
 * feed as the last reporter and its log to the gate's logger; the page's cancel button calls
 * `cancel`, which stops the run as Ctrl-C does.
 */
export async function attachRunUi(
  options: GateOptions,
  flags: UiFlags,
  cancel: () => void,
  stream: NodeJS.WritableStream = process.stderr,
): Promise<RunUi> {
  const { startDashboard } = await loadReporterHtml('--ui');
  let ran = false;
  const dashboard = await startDashboard({
    runsDir: options.outputDir,
    live: true,
    onCancel: () => {
      stream.write('\nsuture: the dashboard asked to cancel the run\n');
      cancel();
    },
  });
  stream.write(`suture: live dashboard at ${dashboard.url}\n`);
  if (flags.open) openInBrowser(dashboard.url, stream);
  const feed = dashboard.reporter;
  options.reporters.push({
    ...feed,
    onRunEnd: async (report, context) => {
      ran = true;
      await feed.onRunEnd?.(report, context);
    },
  });
  options.logger = teeLogger(options.logger, (level, message) => dashboard.log(level, message));
  return {
    async finish() {
      // someone at a terminal may still be reading the page; a CI job or a pipe must not hang
      if (ran && process.stdin.isTTY && !process.env.CI) {
        stream.write(`suture: the dashboard stays up at ${dashboard.url}; press Ctrl-C to stop it\n`);
        await untilInterrupted();
      }
      await dashboard.close();
    },
  };
}
