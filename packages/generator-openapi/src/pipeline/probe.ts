import { request } from 'node:http';
import { request as requestTls } from 'node:https';

export type Probe = { ok: true; status: number } | { ok: false; reason: string };

/** Does anything answer HTTP at the URL? Any status counts: a 404 still means the service is up. */
export function probe(url: string, timeoutMs = 5000): Promise<Probe> {
  return new Promise((resolve) => {
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      resolve({ ok: false, reason: 'not a URL' });
      return;
    }
    const send = target.protocol === 'https:' ? requestTls : request;
    const req = send(target, { method: 'GET', timeout: timeoutMs }, (res) => {
      res.resume();
      resolve({ ok: true, status: res.statusCode ?? 0 });
    });
    req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs / 1000} s`)));
    req.on('error', (error: NodeJS.ErrnoException) =>
      resolve({ ok: false, reason: error.code ?? error.message }),
    );
    req.end();
  });
}
