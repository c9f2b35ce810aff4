import { request } from 'node:http';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { GateReport } from '@suture/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDashboard, type Dashboard, type LiveMessage, type RunSummary } from '../../src/index.js';
import { cleanup, gateShop, shopFixer, shopRepo } from './support.js';

let runsDir: string;
let live: Dashboard;
let cancels = 0;
let report: GateReport;

beforeAll(async () => {
  const { repo, root } = await shopRepo();
  runsDir = join(repo, '.suture', 'runs');
  live = await startDashboard({ runsDir, live: true, onCancel: () => cancels++ });
  await gateShop({ repo, root, fixer: shopFixer(), reporters: [live.reporter] });
  const [runId] = await (
    await fetch(new URL(`/api/runs?token=${live.token}`, live.url))
  )
    .json()
    .then((r: RunSummary[]) => r.map((x) => x.runId));
  report = JSON.parse(await readFile(join(runsDir, runId!, 'report.json'), 'utf8')) as GateReport;
});
afterAll(async () => {
  await live.close();
  await cleanup();
});

/** A raw request, so that the Host header is the test's to choose. */
function get(
  dashboard: Dashboard,
  path: string,
  options: { host?: string; method?: string; headers?: Record<string, string> } = {},
): Promise<{ status: number; body: string; type: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: dashboard.port,
        path,
        method: options.method ?? 'GET',
        headers: { host: options.host ?? `127.0.0.1:${dashboard.port}`, ...options.headers },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body, type: String(res.headers['content-type']) }),
        );
      },
    );
    req.on('error', reject);
    req.end();
  });
}

const withToken = (d: Dashboard, path: string): string =>
  `${path}${path.includes('?') ? '&' : '?'}token=${d.token}`;

describe('the dashboard server', () => {
  it('answers only requests that carry its token, on a loopback Host', async () => {
    expect(live.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]{43}$/);
    expect((await get(live, withToken(live, '/'))).status).toBe(200);
    for (const path of ['/', '/api/runs', '/api/events', `/runs/${report.runId}/report.json`]) {
      const refused = await get(live, path);
      expect(refused.status, path).toBe(403);
      expect(refused.body).toMatch(/token/);
      expect((await get(live, `${path}?token=${live.token.slice(1)}x`)).status, path).toBe(403);
    }
    // a page of another site whose name resolves to 127.0.0.1 sends its own name as Host
    const rebound = await get(live, withToken(live, '/api/runs'), { host: `evil.example:${live.port}` });
    expect(rebound.status).toBe(403);
    expect(rebound.body).toMatch(/Host/);
    await expect(startDashboard({ runsDir, host: '0.0.0.0' as never })).rejects.toThrow(/loopback only/);
  });

  it('lists the earlier runs with the figures of their report.json', async () => {
    const res = await get(live, withToken(live, '/api/runs'));
    const runs = JSON.parse(res.body) as RunSummary[];
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({
      runId: report.runId,
      tests: report.totals.tests,
      passed: report.totals.passed,
      healed: report.totals.healed,
      stillFailing: report.totals.stillFailing,
      costUsd: report.totals.costUsd,
      exitCode: report.exitCode,
      projects: [
        {
          name: 'shop',
          status: report.projects[0]!.status,
          tests: report.projects[0]!.rounds[0]!.tests.length,
        },
      ],
    });
    expect(runs[0]!.artifacts).toEqual(['report.json', 'results.xml', 'fixes.patch']);
  });

  it("serves an earlier run's page with its report embedded, and its files as data only", async () => {
    const page = await get(live, withToken(live, `/runs/${report.runId}/`));
    expect(page.type).toMatch(/^text\/html/);
    const embedded = /<script type="application\/json" id="suture-data">([^<]*)<\/script>/.exec(
      page.body,
    )![1]!;
    expect(JSON.parse(embedded)).toMatchObject({
      mode: 'static',
      report,
      artifactBase: `/runs/${report.runId}/`,
    });
    const patch = await get(live, withToken(live, `/runs/${report.runId}/fixes.patch`));
    expect(patch.body).toBe(report.patch);
    expect(patch.type).toMatch(/^text\/plain/);
    for (const path of [
      `/runs/${report.runId}/report.html`,
      `/runs/${report.runId}/../../../etc/passwd`,
      `/runs/..%2F..%2Fetc/report.json`,
      '/runs/nope/',
    ])
      expect((await get(live, withToken(live, path))).status, path).toBe(404);
  });

  it('replays the whole run to a page that connects after it ended, ending on report.json', async () => {
    const res = await get(live, withToken(live, '/api/events'));
    expect(res.type).toMatch(/^text\/event-stream/);
    const messages = [...res.body.matchAll(/^data: (.*)$/gm)].map((m) => JSON.parse(m[1]!) as LiveMessage);
    const types = messages.map((m) => m.type);
    expect(types[0]).toBe('run-start');
    expect(types.filter((t) => t === 'test').length).toBeGreaterThanOrEqual(report.totals.tests);
    expect(types.filter((t) => t === 'attempt-start')).toHaveLength(3);
    const end = messages[messages.length - 1]!;
    expect(end.type).toBe('run-end');
    expect(end.type === 'run-end' && end.report).toEqual(report);
    // a page that reconnects after event 5 gets the rest only
    const rest = await get(live, withToken(live, '/api/events'), { headers: { 'last-event-id': '5' } });
    expect([...rest.body.matchAll(/^id: (\d+)$/gm)][0]![1]).toBe('6');
  });

  it("starts a run's progress bars at the test count of the latest earlier run", async () => {
    const next = await startDashboard({ runsDir, live: true });
    try {
      await next.reporter.onRunStart!({
        runId: 'next',
        root: '/repo',
        runDir: join(runsDir, 'next'),
        mode: 'check',
        projects: ['shop', 'web'],
      });
      // the stream stays open while the run goes on: read its first message only
      const res = await fetch(new URL(withToken(next, '/api/events'), next.url));
      const reader = res.body!.getReader();
      let text = '';
      while (!/^data: .*\n\n/m.test(text)) text += Buffer.from((await reader.read()).value!).toString();
      await reader.cancel();
      const first = JSON.parse(/^data: (.*)$/m.exec(text)![1]!) as LiveMessage;
      expect(first).toMatchObject({
        type: 'run-start',
        expected: { shop: report.projects[0]!.rounds[0]!.tests.length },
      });
      expect(first.type === 'run-start' && 'web' in first.expected).toBe(false);
    } finally {
      await next.close();
    }
  });

  it('cancels only a run that is still going, and only once', async () => {
    // the run above has ended
    expect((await get(live, withToken(live, '/api/cancel'), { method: 'POST' })).status).toBe(409);
    expect(cancels).toBe(0);
    const browse = await startDashboard({ runsDir });
    try {
      expect((await get(browse, withToken(browse, '/api/cancel'), { method: 'POST' })).status).toBe(409);
      expect((await get(browse, withToken(browse, '/api/events'))).status).toBe(404);
      const page = await get(browse, withToken(browse, '/'));
      expect(page.body).toContain('"mode":"browse"');
    } finally {
      await browse.close();
    }
    let calls = 0;
    const running = await startDashboard({ runsDir, live: true, onCancel: () => calls++ });
    try {
      expect((await get(running, withToken(running, '/api/cancel'), { method: 'POST' })).status).toBe(202);
      expect((await get(running, withToken(running, '/api/cancel'), { method: 'POST' })).status).toBe(202);
      expect((await get(running, withToken(running, '/api/cancel'))).status).toBe(405);
      expect(calls).toBe(1);
    } finally {
      await running.close();
    }
  });
});
