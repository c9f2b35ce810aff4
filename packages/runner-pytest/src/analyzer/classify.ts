import type { FailureKind } from '@suture/core';

const INFRA_TYPES =
  /^(ConnectionRefusedError|ConnectionResetError|ConnectionAbortedError|gaierror|socket\.gaierror|herror|URLError|urllib\.error\.URLError|requests\.exceptions\.ConnectionError|ConnectionError|NewConnectionError|MaxRetryError|ReadTimeout|ConnectTimeout|httpx\.ConnectError|ConnectError|OperationalError)$/;
const INFRA_TEXT =
  /Connection refused|Name or service not known|Temporary failure in name resolution|nodename nor servname|Network is unreachable|No route to host|could not connect to server|getaddrinfo failed|\[Errno (111|101|113|-2|-3)\]/;

/** The failure kind of an exception type (and its message), as pytest reported it. */
export function kindOf(type: string | undefined, message: string): FailureKind {
  const short = (type ?? '').split('.').pop() ?? '';
  if (short === 'AssertionError' || (!type && /^assert\b/.test(message))) return 'assertion';
  if (short === 'SyntaxError' || short === 'IndentationError' || short === 'TabError') return 'syntax';
  if (short === 'ImportError' || short === 'ModuleNotFoundError') return 'import';
  if (INFRA_TYPES.test(type ?? '') || INFRA_TYPES.test(short) || INFRA_TEXT.test(message)) return 'infra';
  if (short === 'PermissionError' && /socket|connect|bind|port/i.test(message)) return 'infra';
  return 'exception';
}

/** Exception type and message from pytest's `E` lines when the plugin had no excinfo (collection). */
export function exceptionFromText(text: string): { type?: string; message: string } {
  const lines = text
    .split('\n')
    .filter((l) => /^E\s/.test(l))
    .map((l) => l.replace(/^E\s+/, ''));
  const hit = [...lines].reverse().find((l) => /^[\w.]+(Error|Exception|Exit)\b:?/.test(l));
  if (!hit) return { message: lines[lines.length - 1] ?? text.trim().split('\n').pop() ?? '' };
  const m = /^([\w.]+):?\s*(.*)$/.exec(hit)!;
  return { type: m[1], message: m[2] ?? '' };
}
