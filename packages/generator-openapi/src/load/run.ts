import autocannon, { type Options as CannonOptions, type Result as CannonResult } from 'autocannon';
import type { CaseContext } from '../plan/cases.js';
import { validCall } from '../plan/cases.js';
import { createItems, toRequest } from './setup.js';

export interface LoadOptions {
  /** Seconds of load per endpoint (default 5). */
  durationS?: number;
  /** Concurrent connections, the users (default 10). */
  connections?: number;
  /** Requests per second of each connection (default: as fast as the service answers). */
  rate?: number;
  /** Fail when an endpoint's p99 latency is over this, in ms. */
  maxP99Ms?: number;
  /** Fail when errors and non-2xx answers are over this share of the requests (0..1). */
  maxErrorRate?: number;
  /** Operations to load (ids or `METHOD /path`) instead of those whose tests all passed. */
  endpoints?: string[];
}

export interface EndpointLoad {
  operation: string;
  method: string;
  path: string;
  requests: number;
  rps: number;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  errorRate: number;
  /** Why it failed a threshold; empty when it did not. */
  failed: string[];
  /** The service closes each connection (`Connection: close`): its figures are a reconnecting client's. */
  closesConnections: boolean;
}

export interface LoadResult {
  endpoints: EndpointLoad[];
  durationS: number;
  connections: number;
  passed: boolean;
}

function cannon(options: CannonOptions): Promise<CannonResult> {
  return new Promise((resolve, reject) => {
    autocannon(options, (error, result) => (error ? reject(error) : resolve(result)));
  });
}

/**
 * Loads each endpoint in turn, in-process with autocannon: the items its request needs are
 * created first (chained in dependency order), then `connections` users send it for `durationS`
 * seconds. Thresholds mark an endpoint failed; the figures are kept either way.
 */
export async function runLoad(
  ctx: CaseContext,
  operations: readonly string[],
  baseUrl: string,
  credential: Record<string, string>,
  options: LoadOptions = {},
): Promise<LoadResult> {
  const durationS = options.durationS ?? 5;
  const connections = options.connections ?? 10;
  const endpoints: EndpointLoad[] = [];
  for (const id of operations) {
    const op = ctx.model.operations.find((o) => o.id === id);
    if (!op) continue;
    const { call, fixtures } = validCall(ctx, op);
    const needed = ctx.resources.filter((r) => fixtures.includes(r.fixture));
    const items = await createItems(ctx, needed, baseUrl, credential);
    const req = toRequest(call, baseUrl, credential, items);
    const first = await fetch(req.url, {
      method: req.method,
      headers: req.headers,
      ...(req.body !== undefined ? { body: req.body } : {}),
    });
    await first.arrayBuffer();
    // autocannon's clients keep connections alive; a service that closes each one leaves them
    // waiting for their timeout, and the figures say so
    const closesConnections = first.headers.get('connection')?.toLowerCase() === 'close';
    const result = await cannon({
      url: req.url,
      method: req.method,
      headers: req.headers,
      ...(req.body !== undefined ? { body: req.body } : {}),
      connections,
      duration: durationS,
      timeout: 10,
      ...(options.rate ? { connectionRate: options.rate } : {}),
    });
    const answered = Object.values(result.statusCodeStats ?? {}).reduce(
      (n: number, s) => n + Number(s.count),
      0,
    );
    const total = answered + result.errors;
    const errorRate = total > 0 ? (result.non2xx + result.errors) / total : 0;
    const failed: string[] = [];
    if (options.maxP99Ms !== undefined && result.latency.p99 > options.maxP99Ms)
      failed.push(`p99 ${result.latency.p99} ms > ${options.maxP99Ms} ms`);
    if (options.maxErrorRate !== undefined && errorRate > options.maxErrorRate)
      failed.push(
        `error rate ${(errorRate * 100).toFixed(1)}% > ${(options.maxErrorRate * 100).toFixed(1)}%`,
      );
    if (total === 0) failed.push('no request was answered');
    endpoints.push({
      operation: id,
      method: op.method,
      path: op.path,
      requests: total,
      rps: Math.round(result.requests.average * 10) / 10,
      p50Ms: result.latency.p50,
      p90Ms: result.latency.p90,
      p99Ms: result.latency.p99,
      non2xx: result.non2xx,
      errors: result.errors,
      timeouts: result.timeouts,
      errorRate: Math.round(errorRate * 10000) / 10000,
      failed,
      closesConnections,
    });
  }
  return { endpoints, durationS, connections, passed: endpoints.every((e) => e.failed.length === 0) };
}
