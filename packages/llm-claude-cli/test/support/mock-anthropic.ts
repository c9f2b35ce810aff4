import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for the Anthropic Messages API, good enough for the real `claude` binary and
 * the real SDK: `HEAD /`, `POST /v1/messages` (SSE when `stream` is true, JSON otherwise),
 * `POST /v1/messages/count_tokens` and `GET /v1/models`, with the prompt cache counted as
 * Anthropic counts it. Calls that carry the answer tool (`StructuredOutput` from
 * `claude --json-schema`, `propose_fix` from API mode) take the next scripted reply; any other
 * call (titles, summaries, quota checks) gets a short text. Every request is logged.
 */

export interface MockUsage {
  input_tokens: number;
  output_tokens: number;
  cache_read_input_tokens: number;
  cache_creation_input_tokens: number;
}

export type MockReply =
  /** The model calls a tool: the answer tool unless `name` says another (such as `Read`). */
  | { kind: 'tool'; input: unknown; name?: string; usage?: Partial<MockUsage>; delayMs?: number }
  /** The model answers in plain text (`refusal` ends with stop_reason "refusal"). */
  | {
      kind: 'text';
      text: string;
      stopReason?: 'end_turn' | 'refusal';
      usage?: Partial<MockUsage>;
      delayMs?: number;
    }
  /** An HTTP error with the Anthropic error body, e.g. 429 rate_limit_error. */
  | {
      kind: 'error';
      status: number;
      type?: string;
      message?: string;
      headers?: Record<string, string>;
      delayMs?: number;
    }
  /** Headers are sent, then nothing, until the client goes away. */
  | { kind: 'hang' };

export interface LoggedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: Record<string, unknown> | undefined;
  /** 'fix' when the request offered the answer tool and took a scripted reply. */
  role: 'fix' | 'side' | 'probe' | 'count';
  /** The reply it got ('side' and 'count' requests excepted). */
  reply?: MockReply;
}

export interface MessageParam {
  role: 'user' | 'assistant';
  content: string | Array<Record<string, unknown>>;
}

export interface MockAnthropic {
  url: string;
  requests: LoggedRequest[];
  /** Replies for the next answer-tool calls, in order. */
  enqueue(...replies: MockReply[]): void;
  /** Replies still queued (a test can check that every scripted reply was used). */
  pending(): number;
  /** The requests that took scripted replies. */
  fixCalls(): LoggedRequest[];
  /** Responses still open (a hanging reply stays open until its client goes away). */
  openResponses(): number;
  /** Answer 401 to `GET /v1/models` with this key. */
  rejectKey(key: string): void;
  close(): Promise<void>;
}

const ANSWER_TOOLS = ['StructuredOutput', 'propose_fix'];

function toolNames(body: Record<string, unknown> | undefined): string[] {
  const tools = Array.isArray(body?.tools) ? (body.tools as Array<{ name?: unknown }>) : [];
  return tools.map((t) => String(t.name));
}

/** A rough token count (4 characters a token) so that usage and cost vary with the prompt. */
function tokensOf(value: unknown): number {
  return Math.max(1, Math.ceil(JSON.stringify(value ?? '').length / 4));
}

async function readBody(req: IncomingMessage): Promise<Record<string, unknown> | undefined> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  if (!text) return undefined;
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    return { unparsed: text };
  }
}

function content(
  reply: Extract<MockReply, { kind: 'tool' | 'text' }>,
  body: Record<string, unknown> | undefined,
  id: number,
): Record<string, unknown> {
  if (reply.kind === 'text') return { type: 'text', text: reply.text };
  const name = reply.name ?? toolNames(body).find((n) => ANSWER_TOOLS.includes(n)) ?? 'StructuredOutput';
  return { type: 'tool_use', id: `toolu_mock_${id}`, name, input: reply.input };
}

/**
 * The prompt as the cache sees it: tools, then system blocks, then each message's blocks, in
 * order, each with whether it carries a cache mark.
 */
function promptBlocks(body: Record<string, unknown> | undefined): Array<{ json: string; marked: boolean }> {
  const blocks: unknown[] = [];
  for (const t of (body?.tools as unknown[] | undefined) ?? []) blocks.push(t);
  const system = body?.system;
  if (typeof system === 'string') blocks.push({ type: 'text', text: system });
  else for (const b of (system as unknown[] | undefined) ?? []) blocks.push(b);
  for (const m of (body?.messages as MessageParam[] | undefined) ?? []) {
    if (typeof m.content === 'string') blocks.push({ role: m.role, text: m.content });
    else for (const b of m.content) blocks.push({ role: m.role, ...b });
  }
  return blocks.map((b) => {
    const marked = Boolean((b as { cache_control?: unknown }).cache_control);
    const json = JSON.stringify(b, (k, v: unknown) => (k === 'cache_control' ? undefined : v));
    return { json, marked };
  });
}

/**
 * Usage as Anthropic's prompt cache counts it: the longest prefix an earlier request wrote
 * (ending at a block boundary no later than this request's last mark) is read from the cache,
 * the marked prefix beyond it is written, the rest is input.
 */
function cachedUsage(
  cache: Set<string>,
  body: Record<string, unknown> | undefined,
): Omit<MockUsage, 'output_tokens'> {
  const blocks = promptBlocks(body);
  const tokens = (upTo: number): number =>
    Math.ceil(blocks.slice(0, upTo).reduce((n, b) => n + b.json.length, 0) / 4);
  const prefix = (upTo: number): string =>
    blocks
      .slice(0, upTo)
      .map((b) => b.json)
      .join('\u0000');
  const lastMark = blocks.reduce((at, b, i) => (b.marked ? i + 1 : at), 0);
  let read = 0;
  for (let j = lastMark; j > 0 && read === 0; j--) if (cache.has(prefix(j))) read = tokens(j);
  blocks.forEach((b, i) => {
    if (b.marked) cache.add(prefix(i + 1));
  });
  const total = Math.max(1, tokens(blocks.length));
  const write = Math.max(0, tokens(lastMark) - read);
  return {
    input_tokens: Math.max(0, total - read - write),
    cache_read_input_tokens: read,
    cache_creation_input_tokens: write,
  };
}

function usageOf(
  reply: Extract<MockReply, { kind: 'tool' | 'text' }>,
  body: Record<string, unknown> | undefined,
  block: Record<string, unknown>,
  cache: Set<string>,
): MockUsage {
  return { ...cachedUsage(cache, body), output_tokens: tokensOf(block), ...reply.usage };
}

function sse(res: ServerResponse, event: string, data: unknown): void {
  res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
}

function streamMessage(
  res: ServerResponse,
  message: Record<string, unknown>,
  block: Record<string, unknown>,
  usage: MockUsage,
  stopReason: string,
): void {
  res.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    'request-id': `req_${message.id as string}`,
  });
  sse(res, 'message_start', {
    type: 'message_start',
    message: {
      ...message,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { ...usage, output_tokens: 1 },
    },
  });
  sse(res, 'ping', { type: 'ping' });
  if (block.type === 'text') {
    sse(res, 'content_block_start', {
      type: 'content_block_start',
      index: 0,
      content_block: { type: 'text', text: '' },
    });
    const text = String(block.text);
    // Two deltas, so the client has to join a split block.
    const cut = Math.floor(text.length / 2);
    for (const part of [text.slice(0, cut), text.slice(cut)]) {
      if (part)
        sse(res, 'content_block_delta', {
          type: 'content_block_delta',
          index: 0,
          delta: { type: 'text_delta', text: part },
        });
    }
  } else {
    sse(res, 'content_block_start', {
      type: 'content_block_start',
      index: 0,
      content_block: { ...block, input: {} },
    });
    const json = JSON.stringify(block.input);
    const cut = Math.floor(json.length / 2);
    for (const part of [json.slice(0, cut), json.slice(cut)]) {
      sse(res, 'content_block_delta', {
        type: 'content_block_delta',
        index: 0,
        delta: { type: 'input_json_delta', partial_json: part },
      });
    }
  }
  sse(res, 'content_block_stop', { type: 'content_block_stop', index: 0 });
  sse(res, 'message_delta', {
    type: 'message_delta',
    delta: { stop_reason: stopReason, stop_sequence: null },
    usage: { output_tokens: usage.output_tokens },
  });
  sse(res, 'message_stop', { type: 'message_stop' });
  res.end();
}

function sendError(res: ServerResponse, reply: Extract<MockReply, { kind: 'error' }>): void {
  const type =
    reply.type ??
    (reply.status === 429 ? 'rate_limit_error' : reply.status === 401 ? 'authentication_error' : 'api_error');
  res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
  res.end(JSON.stringify({ type: 'error', error: { type, message: reply.message ?? `mock ${type}` } }));
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export async function startMockAnthropic(): Promise<MockAnthropic> {
  const requests: LoggedRequest[] = [];
  const queue: MockReply[] = [];
  const open = new Set<ServerResponse>();
  const cache = new Set<string>();
  const rejected = new Set<string>();
  let ids = 0;

  const answer = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = req.url ?? '/';
    const body = req.method === 'POST' ? await readBody(req) : undefined;
    const headers = Object.fromEntries(
      Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : String(v ?? '')]),
    );
    const entry: LoggedRequest = { method: req.method ?? 'GET', path, headers, body, role: 'side' };
    requests.push(entry);

    if (req.method === 'GET' && path.startsWith('/v1/models')) {
      entry.role = 'probe';
      if (rejected.has(headers['x-api-key'] ?? '')) {
        sendError(res, { kind: 'error', status: 401, message: 'invalid x-api-key' });
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ data: [{ type: 'model', id: 'claude-sonnet-4-6' }], has_more: false }));
      return;
    }
    if (req.method !== 'POST') {
      entry.role = 'probe';
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(req.method === 'HEAD' ? undefined : '{}');
      return;
    }
    if (path.startsWith('/v1/messages/count_tokens')) {
      entry.role = 'count';
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ input_tokens: tokensOf(body?.messages) }));
      return;
    }
    if (!path.startsWith('/v1/messages')) {
      sendError(res, {
        kind: 'error',
        status: 404,
        type: 'not_found_error',
        message: `mock: no route for ${path}`,
      });
      return;
    }

    const isFix = toolNames(body).some((n) => ANSWER_TOOLS.includes(n));
    let reply: MockReply = { kind: 'text', text: 'Mock title' };
    if (isFix) {
      entry.role = 'fix';
      reply = queue.shift() ?? { kind: 'text', text: 'mock: no reply was scripted for this call' };
      entry.reply = reply;
    }
    if (reply.kind === 'hang') {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.flushHeaders();
      return;
    }
    if (reply.delayMs) await sleep(reply.delayMs);
    if (reply.kind === 'error') {
      sendError(res, reply);
      return;
    }
    const id = ++ids;
    const block = content(reply, body, id);
    const usage = usageOf(reply, body, block, cache);
    const stopReason = reply.kind === 'tool' ? 'tool_use' : (reply.stopReason ?? 'end_turn');
    const message = {
      id: `msg_mock_${id}`,
      type: 'message',
      role: 'assistant',
      model: String(body?.model ?? 'claude-mock'),
    };
    if (body?.stream) {
      streamMessage(res, message, block, usage, stopReason);
    } else {
      res.writeHead(200, { 'content-type': 'application/json', 'request-id': `req_${id}` });
      res.end(
        JSON.stringify({ ...message, content: [block], stop_reason: stopReason, stop_sequence: null, usage }),
      );
    }
  };

  const server = createServer((req, res) => {
    open.add(res);
    res.on('close', () => open.delete(res));
    answer(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          type: 'error',
          error: { type: 'api_error', message: `mock crashed: ${String(error)}` },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    enqueue: (...replies) => void queue.push(...replies),
    pending: () => queue.length,
    fixCalls: () => requests.filter((r) => r.role === 'fix'),
    openResponses: () => open.size,
    rejectKey: (key) => void rejected.add(key),
    close: async () => {
      for (const res of open) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The messages a logged request sent (empty for requests without a body). */
export function messagesOf(request: LoggedRequest): MessageParam[] {
  return Array.isArray(request.body?.messages) ? (request.body.messages as MessageParam[]) : [];
}

/**
 * The messages without claude's prompt-cache marks, which move to the newest turn on every call:
 * what a resumed session replays, compared as content.
 */
export function conversationOf(request: LoggedRequest): MessageParam[] {
  return JSON.parse(
    JSON.stringify(messagesOf(request), (key, value: unknown) =>
      key === 'cache_control' ? undefined : value,
    ),
  ) as MessageParam[];
}

/** All the text a request's messages carried (text blocks and tool results), to search in. */
export function textOf(request: LoggedRequest): string {
  const parts: string[] = [];
  for (const m of messagesOf(request)) {
    if (typeof m.content === 'string') parts.push(m.content);
    else
      for (const b of m.content)
        parts.push(typeof b.text === 'string' ? b.text : JSON.stringify(b.content ?? b.input ?? ''));
  }
  return parts.join('\n');
}
