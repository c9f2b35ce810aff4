import { describe, expect, it } from 'vitest';
import type { LiveMessage } from '../shared/live.js';
import { applyMessage, initialLiveState, serverGone, type LiveState } from './live-state.js';

const fold = (messages: LiveMessage[], state = initialLiveState()): LiveState =>
  messages.reduce(applyMessage, state);
const test = (status: 'passed' | 'failed'): LiveMessage => ({
  type: 'test',
  project: 'shop',
  id: 't',
  status,
});
const roundEnd = (kind: string, tests: number): LiveMessage => ({
  type: 'round-end',
  project: 'shop',
  kind,
  status: 'failed',
  tests,
  durationMs: 1,
});

const started = fold([
  {
    type: 'run-start',
    runId: 'r1',
    mode: 'fix',
    projects: ['shop'],
    expected: {},
    at: '2026-01-01T00:00:00Z',
  },
  { type: 'project-start', project: 'shop', runner: 'pytest' },
]);

describe('the live page state', () => {
  it('counts the tests of every run of the suite, while the counter of the run under way starts again', () => {
    const state = fold(
      [
        test('passed'),
        test('failed'),
        test('passed'),
        roundEnd('initial', 3),
        test('failed'),
        roundEnd('retry', 1),
        test('passed'),
      ],
      started,
    );
    const shop = state.projects[0]!;
    expect(shop.current).toMatchObject({ done: 1, passed: 1, failed: 0 });
    expect(shop.total).toEqual({ done: 5, passed: 3, failed: 2, skipped: 0 });
    expect(shop.rounds).toBe(2);
  });

  it('ends a running page whose server went away, and leaves a finished one as it was', () => {
    const gone = serverGone(started);
    expect(gone.status).toBe('ended');
    expect(gone.log.at(-1)?.message).toMatch(
      /^the connection to suture closed before the run reported its end/,
    );
    const finished: LiveState = { ...started, status: 'finished' };
    expect(serverGone(finished)).toBe(finished);
  });
});
