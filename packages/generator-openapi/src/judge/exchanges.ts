import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from '@suture/core';

export const ExchangeSchema = z.object({
  phase: z.string(),
  method: z.string(),
  path: z.string(),
  pathArgs: z.record(z.string(), z.unknown()).default({}),
  query: z.record(z.string(), z.unknown()).default({}),
  url: z.string(),
  request: z.object({
    headers: z.record(z.string(), z.string()).default({}),
    body: z.unknown(),
    raw: z.boolean().default(false),
  }),
  response: z.object({
    status: z.number().int(),
    headers: z.record(z.string(), z.string()).default({}),
    body: z.unknown(),
  }),
  elapsedMs: z.number(),
});
export type Exchange = z.infer<typeof ExchangeSchema>;

/** The file the generated conftest keeps a test's requests and answers in. */
export function exchangeFile(root: string, nodeid: string): string {
  return join(root, '.exchanges', `${nodeid.replace(/[^A-Za-z0-9_.-]/g, '_')}.json`);
}

/** A test's recorded exchanges (setup and call), oldest first; empty when it recorded none. */
export async function readExchanges(root: string, nodeid: string): Promise<Exchange[]> {
  let text: string;
  try {
    text = await readFile(exchangeFile(root, nodeid), 'utf8');
  } catch {
    return [];
  }
  const parsed = z.array(ExchangeSchema).safeParse(JSON.parse(text));
  return parsed.success ? parsed.data : [];
}

/** An exchange as a bug report's evidence: the request and the answer, nothing of the recorder's own. */
export function evidenceOf(e: Exchange): {
  request: Record<string, unknown>;
  response: Record<string, unknown>;
} {
  return {
    request: {
      method: e.method,
      url: e.url,
      headers: e.request.headers,
      ...(e.request.body !== null && e.request.body !== undefined ? { body: e.request.body } : {}),
    },
    response: {
      status: e.response.status,
      headers: e.response.headers,
      ...(e.response.body !== null && e.response.body !== undefined ? { body: e.response.body } : {}),
      elapsedMs: e.elapsedMs,
    },
  };
}
