import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { ARTIFACTS } from '../artifacts.js';
import { renderPage } from '../page.js';
import { isRunId, readRunReport, type RunIndex } from './runs.js';
import type { EventHub } from './sse.js';

export interface RouteContext {
  runs: RunIndex;
  /** The stream of the run under way; absent for `suture ui`, which only browses. */
  hub?: EventHub;
  token: string;
  cancel(): boolean;
}

const COMMON_HEADERS = {
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
};

const TYPES: Record<string, string> = {
  '.json': 'application/json; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.md': 'text/plain; charset=utf-8',
  '.patch': 'text/plain; charset=utf-8',
};

export function send(
  res: ServerResponse,
  status: number,
  body: string,
  type = 'text/plain; charset=utf-8',
): void {
  res.writeHead(status, { ...COMMON_HEADERS, 'content-type': type });
  res.end(body);
}

function page(res: ServerResponse, html: string): void {
  send(res, 200, html, 'text/html; charset=utf-8');
}

async function runRoute(res: ServerResponse, ctx: RouteContext, runId: string, rest: string): Promise<void> {
  if (!isRunId(runId)) return send(res, 404, 'no such run');
  if (rest === '') {
    const report = await readRunReport(ctx.runs.runsDir, runId);
    if (!report) return send(res, 404, `no readable report.json for run ${runId}`);
    const artifacts = (await ctx.runs.list()).find((r) => r.runId === runId)?.artifacts ?? ['report.json'];
    return page(
      res,
      renderPage(
        { mode: 'static', report, artifacts, artifactBase: `/runs/${runId}/`, token: ctx.token },
        { title: `suture run ${runId}`, served: true },
      ),
    );
  }
  if (!(ARTIFACTS as readonly string[]).includes(rest)) return send(res, 404, 'not a run file');
  const text = await readFile(join(ctx.runs.runsDir, runId, rest), 'utf8').catch(() => undefined);
  if (text === undefined) return send(res, 404, `run ${runId} has no ${rest}`);
  // served as data, never as a page: a file of test output must not run in the dashboard's origin
  res.writeHead(200, {
    ...COMMON_HEADERS,
    'content-type': TYPES[rest.slice(rest.lastIndexOf('.'))] ?? 'text/plain; charset=utf-8',
    'content-security-policy': "default-src 'none'; sandbox",
  });
  res.end(text);
}

/** Every route of the dashboard; the caller has checked the Host header and the token. */
export async function route(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  ctx: RouteContext,
): Promise<void> {
  const { pathname } = url;
  if (pathname === '/api/cancel') {
    if (req.method !== 'POST') return send(res, 405, 'POST to cancel');
    if (!ctx.hub) return send(res, 409, 'no run to cancel: this dashboard only browses earlier runs');
    return ctx.cancel() ? send(res, 202, 'cancelling') : send(res, 409, 'the run already ended');
  }
  if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, 'method not allowed');
  if (pathname === '/')
    return page(
      res,
      renderPage(
        { mode: ctx.hub ? 'live' : 'browse', token: ctx.token },
        { title: ctx.hub ? 'suture run (live)' : 'suture runs', served: true },
      ),
    );
  if (pathname === '/api/events') {
    if (!ctx.hub) return send(res, 404, 'no live run');
    return ctx.hub.attach(req, res);
  }
  if (pathname === '/api/runs') return send(res, 200, JSON.stringify(await ctx.runs.list()), TYPES['.json']);
  const run = /^\/runs\/([^/]+)\/(.*)$/.exec(pathname);
  if (run) {
    let runId: string;
    try {
      runId = decodeURIComponent(run[1]!);
    } catch {
      return send(res, 400, 'bad run id');
    }
    return runRoute(res, ctx, runId, run[2]!);
  }
  return send(res, 404, 'not found');
}
