import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import {
  callFailureReason,
  failureOfStatus,
  formatDuration,
  type CallFailure,
  type CallSite,
} from './call-failure.js';
import { connectionCause } from './sdk-errors.js';

const local: CallSite = {
  endpoint: 'http://127.0.0.1:8000/v1',
  path: '/chat/completions',
  model: 'coder',
  retries: 2,
  timeoutMs: 180_000,
  key: undefined,
  keyFix: 'set TEAM_KEY to a valid key',
  selfHosted: true,
};
const vendor: CallSite = {
  ...local,
  endpoint: 'https://api.vendor.example/v1',
  retries: 1,
  key: { value: 'k', source: '$TEAM_KEY', placeholder: false },
  selfHosted: false,
};
const reason = (f: CallFailure, site = local): string => callFailureReason(f, site);

describe('failureOfStatus', () => {
  it('names what each status means', () => {
    const kinds = [401, 403, 404, 429, 500, 503, 400, 413, 422, 408, 418].map(
      (s) => failureOfStatus(s, 'x').kind,
    );
    expect(kinds).toEqual([
      'auth',
      'forbidden',
      'not-found',
      'rate-limit',
      'server',
      'server',
      'bad-request',
      'bad-request',
      'bad-request',
      'status',
      'status',
    ]);
    expect(failureOfStatus(429, 'x', 'insufficient_quota').kind).toBe('quota');
  });
});

describe('callFailureReason: one sentence per failure, with what to do', () => {
  it('rate limits and server errors say how often it was retried', () => {
    expect(reason(failureOfStatus(429, 'slow down'))).toBe(
      'rate limited by http://127.0.0.1:8000/v1 after 2 retries (429: slow down): re-run later, raise the fixer option "retries", or lower "concurrency"',
    );
    expect(reason(failureOfStatus(503, 'overloaded'), vendor)).toBe(
      'https://api.vendor.example/v1/chat/completions failed with 503 after 1 retry (overloaded): the server is in trouble; re-run later',
    );
    expect(reason(failureOfStatus(429, 'no credit', 'insufficient_quota'), vendor)).toBe(
      'https://api.vendor.example/v1 says the account is out of quota (429: no credit): add credit or use another key',
    );
  });

  it('a 401 names where the key came from, or that none was set, and the fix', () => {
    expect(reason(failureOfStatus(401, 'bad key'), vendor)).toBe(
      'https://api.vendor.example/v1 refused the API key from $TEAM_KEY (401: bad key): set TEAM_KEY to a valid key',
    );
    expect(reason(failureOfStatus(401, 'key required'))).toBe(
      'http://127.0.0.1:8000/v1 wants an API key and none is set (401: key required): set TEAM_KEY to a valid key',
    );
  });

  it('403 and 404 name the model', () => {
    expect(reason(failureOfStatus(403, 'no access'))).toBe(
      'http://127.0.0.1:8000/v1 denied the request (403: no access): check that the key may use model "coder"',
    );
    expect(reason(failureOfStatus(404, 'no such model'))).toBe(
      'http://127.0.0.1:8000/v1/chat/completions answered 404 (no such model): check the fixer options "model" ("coder") and "baseURL"',
    );
  });

  it('timeouts and connection errors: retried, with advice for a server the user runs or a vendor', () => {
    expect(reason({ kind: 'timeout', detail: '' })).toBe(
      'no reply from http://127.0.0.1:8000/v1/chat/completions within 180 s after 2 retries: raise the fixer option "timeoutMs", lower "maxOutputTokens", or use a faster model',
    );
    expect(reason({ kind: 'timeout', detail: '' }, { ...vendor, retries: 0, timeoutMs: 300 })).toMatch(
      /within 300 ms: raise/,
    );
    expect(reason({ kind: 'connection', detail: 'ECONNREFUSED' })).toBe(
      'cannot connect to http://127.0.0.1:8000/v1/chat/completions after 2 retries (ECONNREFUSED): is the server at http://127.0.0.1:8000/v1 running?',
    );
    expect(reason({ kind: 'connection', detail: 'ENOTFOUND' }, vendor)).toMatch(
      /after 1 retry \(ENOTFOUND\): check the network and any proxy$/,
    );
  });

  it('a bad request names the parameter, other statuses and errors pass on what was said', () => {
    expect(reason({ ...failureOfStatus(400, 'unknown field'), param: 'tools[0]' })).toBe(
      'http://127.0.0.1:8000/v1/chat/completions rejected the request (parameter tools[0]) (400: unknown field)',
    );
    expect(reason(failureOfStatus(409, 'locked'))).toBe(
      'http://127.0.0.1:8000/v1/chat/completions answered 409 after 2 retries: locked',
    );
    expect(reason(failureOfStatus(418, 'teapot'))).toBe(
      'http://127.0.0.1:8000/v1/chat/completions answered 418: teapot',
    );
    expect(reason({ kind: 'cancelled', detail: 'aborted' })).toBe(
      'the request to http://127.0.0.1:8000/v1/chat/completions was cancelled: the run was interrupted',
    );
    expect(reason({ kind: 'other', detail: 'boom' })).toBe(
      'the request to http://127.0.0.1:8000/v1/chat/completions failed: boom',
    );
  });

  it("takes a transport's advice over the uniform one, and works without a path", () => {
    const site = { ...local, endpoint: 'claude', path: undefined, retries: 1, timeoutMs: 15_000 };
    expect(callFailureReason({ kind: 'timeout', detail: '' }, site, () => 'check the network')).toBe(
      'no reply from claude within 15 s after 1 retry: check the network',
    );
    const hint = (f: CallFailure) => (f.kind === 'not-found' ? 'pull the model first' : undefined);
    expect(callFailureReason(failureOfStatus(404, 'x'), local, hint)).toMatch(/\(x\): pull the model first$/);
    expect(callFailureReason(failureOfStatus(429, 'x'), local, hint)).toMatch(/re-run later/);
  });

  it('formats durations as people read them', () => {
    expect([999, 1000, 1500, 180_000].map(formatDuration)).toEqual(['999 ms', '1 s', '1500 ms', '180 s']);
  });
});

describe('connectionCause of a real failed fetch', () => {
  async function fetchError(url: string): Promise<Error> {
    try {
      await fetch(url);
    } catch (error) {
      // as an SDK wraps it
      return new Error('Connection error.', { cause: error });
    }
    throw new Error(`${url} answered`);
  }

  it('is the innermost code, else the innermost message', async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    expect(connectionCause(await fetchError(`http://127.0.0.1:${port}/v1`))).toBe('ECONNREFUSED');
    // fetch refuses the port itself, before any connection
    expect(connectionCause(await fetchError('http://127.0.0.1:9/v1'))).toBe('bad port');
    expect(connectionCause(new Error('no cause'))).toBe('no cause');
  });
});
