import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Reporter } from '@suture/core';
import type { LiveMessage } from '../shared/live.js';
import { LOOPBACK_HOSTS, newToken, refusal } from './access.js';
import { liveFeed } from './live-feed.js';
import { route, send } from './routes.js';
import { RunIndex } from './runs.js';
import { EventHub } from './sse.js';

export interface DashboardOptions {
  /** The folder of the run folders (`<root>/.suture/runs`): earlier runs and their trends. */
  runsDir: string;
  /** Stream a run (`suture run --ui`): add `dashboard.reporter` to the gate's reporters. */
  live?: boolean;
  /** 0 (the default) takes a free port. */
  port?: number;
  /** A loopback address: 127.0.0.1 (default), ::1 or localhost. */
  host?: (typeof LOOPBACK_HOSTS)[number];
  /** The URL token; a random one by default. */
  token?: string;
  /** Called once when the page's cancel button is pressed: stop the run as Ctrl-C does. */
  onCancel?: () => void;
}

export interface Dashboard {
  /** The page's address, token included: print it, open it, never log it elsewhere. */
  readonly url: string;
  readonly port: number;
  readonly token: string;
  /** Feeds the page (live dashboards only): the gate's last reporter. */
  readonly reporter: Reporter;
  /** A line for the page's log (the CLI's own warnings). */
  log(level: 'debug' | 'info' | 'warn' | 'error', message: string): void;
  /** Ends the event streams (pages keep what they got) and stops listening. */
  close(): Promise<void>;
}

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

/**
 * The dashboard server of `suture run --ui` and `suture ui`: one page, its event stream, the
 * earlier runs and their files. Every request needs the token and a loopback Host header.
 */
export async function startDashboard(options: DashboardOptions): Promise<Dashboard> {
  const host = options.host ?? '127.0.0.1';
  if (!(LOOPBACK_HOSTS as readonly string[]).includes(host))
    throw new Error(`the dashboard listens on loopback only (${LOOPBACK_HOSTS.join(', ')}), not "${host}"`);
  const token = options.token ?? newToken();
  const runs = new RunIndex(options.runsDir);
  const hub = options.live ? new EventHub() : undefined;
  let ended = false;
  let cancelled = false;
  const publish = (message: LiveMessage): void => {
    if (message.type === 'run-end') ended = true;
    hub?.publish(message);
  };
  let port = 0;
  const server = createServer((req, res) => {
    let url: URL;
    try {
      url = new URL(req.url ?? '/', 'http://127.0.0.1');
    } catch {
      return send(res, 400, 'bad request');
    }
    const refused = refusal(req, url, token, port);
    if (refused) return send(res, 403, refused);
    route(req, res, url, {
      runs,
      ...(hub ? { hub } : {}),
      token,
      cancel() {
        if (ended) return false;
        if (!cancelled) {
          cancelled = true;
          publish({ type: 'cancelling' });
          options.onCancel?.();
        }
        return true;
      },
    }).catch((error: unknown) => {
      if (!res.headersSent) send(res, 500, `suture dashboard: ${(error as Error).message}`);
      else res.end();
    });
  });
  // an idle browser tab must not keep `suture` from exiting once the dashboard closes
  server.keepAliveTimeout = 2_000;
  port = await listen(server, options.port ?? 0, host);
  const shown = host === '::1' ? '[::1]' : host;
  return {
    url: `http://${shown}:${port}/?token=${token}`,
    port,
    token,
    reporter: liveFeed({
      publish,
      expected: (projects, runId) => runs.expectedTests(projects, runId),
    }),
    log(level, message) {
      publish({ type: 'log', level, message, at: new Date().toISOString() });
    },
    close() {
      hub?.end();
      return new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
