import { cp } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import type { ConfigInput, GateReport } from '@suture/core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ClaudeOptions } from '../../../src/options.js';
import { claudeBinary, isolatedEnv, removeHomes, TEST_MODEL } from '../../support/claude.js';
import { startMockAnthropic, type MockAnthropic } from '../../support/mock-anthropic.js';
import { cleanup, gate, sandbox } from './support.js';

// What an endpoint that is down or hung costs a run with the real claude: two pytest projects (a
// failure group each) gated one after the other, with the fixer's defaults (circuit breaker 2,
// timeoutRetries 0) and three attempts per group. claude reports API errors in its result rather
// than failing, and the breaker counts them all the same.
let mock: MockAnthropic;
beforeAll(async () => {
  mock = await startMockAnthropic();
});
afterAll(async () => {
  await mock.close();
  await cleanup();
  removeHomes();
});
beforeEach(() => {
  mock.requests.length = 0;
});

/** A local port nothing listens on. */
async function deadURL(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

async function twoProjects(claude: ClaudeOptions, baseURL: string): Promise<GateReport> {
  const config: ConfigInput = {
    projects: [
      { name: 'one', root: 'app', runner: 'pytest' },
      { name: 'two', root: 'app2', runner: 'pytest' },
    ],
    fixers: [
      ['claude', { command: claudeBinary(), model: TEST_MODEL, env: isolatedEnv(baseURL), ...claude }],
    ],
    heal: { maxAttempts: 3, flakyReruns: 0, regression: false },
    concurrency: 1,
    reporters: ['json'],
  };
  const box = await sandbox(config);
  await cp(join(box.dir, 'app'), join(box.dir, 'app2'), { recursive: true });
  return (await gate(box)).report;
}

const attempts = (report: GateReport): Array<[string, string, string | undefined]> =>
  report.projects.flatMap((p) =>
    p.failures.flatMap((f) =>
      f.attempts.map((a): [string, string, string | undefined] => [p.name, a.verdict, a.reason]),
    ),
  );
const two = (report: GateReport) => report.projects.find((p) => p.name === 'two')!.failures[0]!;
const BREAKER =
  /; 2 calls in a row got no reply, so this fixer is skipped for the rest of the run \(the fixer option "circuitBreaker"\)$/;

describe('the claude fixer with an endpoint that is down', () => {
  it('connection refused: two calls, then claude is out for the run and the second group is not asked', async () => {
    const url = await deadURL();
    const report = await twoProjects({}, url);
    const rows = attempts(report);
    expect(rows.map(([p, v]) => [p, v])).toEqual([
      ['one', 'fixer-error'],
      ['one', 'fixer-error'],
    ]);
    expect(rows[0]![2]).toContain(`cannot connect to ${url}/v1/messages after 2 retries (ConnectionRefused)`);
    expect(rows[1]![2]).toMatch(BREAKER);
    expect(two(report).attempts).toEqual([]);
    expect(two(report).reason).toMatch(
      /^not asked: every fixer is out for this run\n@suture\/llm-claude-cli: /,
    );
  });

  it('answering 500: three requests a call (claude retries twice), two calls, then no more', async () => {
    mock.enqueue(
      ...Array.from({ length: 6 }, () => ({ kind: 'error' as const, status: 500, message: 'down' })),
    );
    const report = await twoProjects({}, mock.url);
    expect(mock.fixCalls()).toHaveLength(6);
    expect(mock.pending()).toBe(0);
    const rows = attempts(report);
    expect(rows.map(([p, v]) => [p, v])).toEqual([
      ['one', 'fixer-error'],
      ['one', 'fixer-error'],
    ]);
    expect(rows[0]![2]).toMatch(/\/v1\/messages failed with 500 after 2 retries/);
    expect(rows[1]![2]).toMatch(BREAKER);
    expect(two(report).attempts).toEqual([]);
  });

  it('hung: the call ends at timeoutMs with claude killed, and claude is out for the run at once', async () => {
    mock.enqueue({ kind: 'hang' });
    const report = await twoProjects({ timeoutMs: 15_000, retries: 0 }, mock.url);
    // one call at most reached the API (claude may not get that far on a loaded machine)
    expect(mock.fixCalls().length).toBeLessThanOrEqual(1);
    const rows = attempts(report);
    expect(rows.map(([p, v]) => [p, v])).toEqual([['one', 'fixer-error']]);
    expect(rows[0]![2]).toContain('no reply from claude within 15 s');
    expect(rows[0]![2]).toMatch(
      /; a call that runs out its time limit opens the breaker, so this fixer is skipped for the rest of the run \(the fixer option "circuitBreaker"\)$/,
    );
    expect(two(report).attempts).toEqual([]);
    // the killed claude left no request open
    expect(mock.openResponses()).toBe(0);
  }, 240_000);
});
