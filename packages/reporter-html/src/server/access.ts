import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** 32 random bytes: the page's address is the only way to it. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

function sameToken(given: string, token: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Loopback names only: the dashboard never listens where another machine could reach it. */
export const LOOPBACK_HOSTS = ['127.0.0.1', '::1', 'localhost'] as const;

/**
 * Why a request is refused, or undefined when it may go on. The token keeps other local users out;
 * the Host check keeps out a web page that rebinds its own name to 127.0.0.1.
 */
export function refusal(req: IncomingMessage, url: URL, token: string, port: number): string | undefined {
  const host = req.headers.host ?? '';
  const hosts = [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`];
  if (!hosts.includes(host)) return `unexpected Host header "${host}"`;
  const given = url.searchParams.get('token') ?? '';
  if (!sameToken(given, token)) return 'missing or wrong token: open the address suture printed';
  return undefined;
}
