import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local server speaking the wire format of Chat Completions, the Responses API and the models
 * list, driven through the real SDK. Each test scripts the replies and reads back every request.
 */

export interface LoggedRequest {
  method: string;
  /** Path without the query, e.g. `/v1/chat/completions`. */
  path: string;
  headers: Record<string, string | string[] | undefined>;
  /** Raw body text, to look for strings anywhere in it. */
  raw: string;
  /** Parsed JSON body, when there is one: tests read whatever the SDK sent. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

export interface Tokens {
  input: number;
  output: number;
  cached: number;
}

export type Reply =
  /**
   * A `propose_fix` call; an object is sent as JSON arguments, a string as is. `model` is the
   * name the reply gives (default: the requested one), as a server that answers with a dated name.
   */
  | {
      kind: 'call';
      answer: unknown;
      tokens?: Partial<Tokens>;
      name?: string;
      cutOff?: boolean;
      model?: string;
    }
  /** A plain-text answer with no function call. */
  | { kind: 'text'; text: string; tokens?: Partial<Tokens> }
  | { kind: 'refusal'; refusal: string; tokens?: Partial<Tokens> }
  /** An HTTP error in OpenAI's error format. */
  | { kind: 'error'; status: number; message: string; type?: string; code?: string; retryAfterMs?: number }
  /** Never answers (a server that is too slow). */
  | { kind: 'hang' }
  /** Sends the headers and part of the body, then nothing. */
  | { kind: 'stall' };

export const call = (
  answer: unknown,
  extra: Omit<Extract<Reply, { kind: 'call' }>, 'kind' | 'answer'> = {},
): Reply => ({ kind: 'call', answer, ...extra });
export const text = (t: string, tokens?: Partial<Tokens>): Reply => ({
  kind: 'text',
  text: t,
  ...(tokens ? { tokens } : {}),
});
export const httpError = (
  status: number,
  message: string,
  extra: { type?: string; code?: string; retryAfterMs?: number } = {},
): Reply => ({ kind: 'error', status, message, ...extra });
export const hang = (): Reply => ({ kind: 'hang' });
export const stall = (): Reply => ({ kind: 'stall' });

/** The answer object of a patch, with every field the strict schema requires. */
export function editsAnswer(
  edits: Array<{ file: string; search: string; replace: string }>,
  rationale = 'the boundary is inclusive',
): Record<string, unknown> {
  return {
    verdict: 'edits',
    rationale,
    edits: edits.map((e) => ({ ...e, content: null })),
    bug: null,
    diagnosis: null,
  };
}

export function bugAnswer(bug: {
  summary: string;
  expected: string;
  actual: string;
  evidence: string;
  file?: string;
  symbol?: string;
}): Record<string, unknown> {
  return {
    verdict: 'product-bug',
    rationale: 'the test states the rule',
    edits: [],
    bug: { file: null, symbol: null, ...bug },
    diagnosis: null,
  };
}

export interface MockOpenAI {
  /** API root to configure, `http://127.0.0.1:<port>/v1`. */
  baseURL: string;
  requests: LoggedRequest[];
  /** Requests to the chat or responses endpoint, in order. */
  completions(): LoggedRequest[];
  /** Queues replies for the next completion requests, in order. */
  script(...replies: Reply[]): void;
  /** Answers completion requests once the script is used up (default: a 500 that says so). */
  fallback(handler: (request: LoggedRequest) => Reply): void;
  /** Model ids the models list returns. */
  models: string[];
  /** When set, requests without `Authorization: Bearer <key>` get a 401. */
  requireKey: string | undefined;
  /** Forgets the script, the fallback, the log and the settings, for the next test. */
  reset(): void;
  close(): Promise<void>;
}

const DEFAULT_MODELS = ['gpt-5-mini', 'qwen2.5-coder:latest'];
const DEFAULT_TOKENS: Tokens = { input: 1200, output: 150, cached: 0 };

function errorBody(
  status: number,
  message: string,
  type = 'server_error',
  code: string | null = null,
): string {
  return JSON.stringify({ error: { message, type, param: null, code } });
}

function chatBody(reply: Reply, model: string): unknown {
  const t = { ...DEFAULT_TOKENS, ...('tokens' in reply ? reply.tokens : {}) };
  const usage = {
    prompt_tokens: t.input,
    completion_tokens: t.output,
    total_tokens: t.input + t.output,
    prompt_tokens_details: { cached_tokens: t.cached },
  };
  const message =
    reply.kind === 'call'
      ? {
          role: 'assistant',
          content: null,
          refusal: null,
          tool_calls: [
            {
              id: 'call_1',
              type: 'function',
              function: {
                name: reply.name ?? 'propose_fix',
                arguments: typeof reply.answer === 'string' ? reply.answer : JSON.stringify(reply.answer),
              },
            },
          ],
        }
      : reply.kind === 'refusal'
        ? { role: 'assistant', content: null, refusal: reply.refusal }
        : { role: 'assistant', content: reply.kind === 'text' ? reply.text : '', refusal: null };
  const finish = reply.kind === 'call' ? (reply.cutOff ? 'length' : 'tool_calls') : 'stop';
  return {
    id: 'chatcmpl-1',
    object: 'chat.completion',
    created: 1_767_000_000,
    model,
    choices: [{ index: 0, message, finish_reason: finish, logprobs: null }],
    usage,
  };
}

function responsesBody(reply: Reply, model: string): unknown {
  const t = { ...DEFAULT_TOKENS, ...('tokens' in reply ? reply.tokens : {}) };
  const usage = {
    input_tokens: t.input,
    input_tokens_details: { cached_tokens: t.cached },
    output_tokens: t.output,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: t.input + t.output,
  };
  const output =
    reply.kind === 'call'
      ? [
          {
            type: 'function_call',
            id: 'fc_1',
            call_id: 'call_1',
            name: reply.name ?? 'propose_fix',
            arguments: typeof reply.answer === 'string' ? reply.answer : JSON.stringify(reply.answer),
            status: 'completed',
          },
        ]
      : [
          {
            type: 'message',
            id: 'msg_1',
            role: 'assistant',
            status: 'completed',
            content:
              reply.kind === 'refusal'
                ? [{ type: 'refusal', refusal: reply.refusal }]
                : [{ type: 'output_text', text: reply.kind === 'text' ? reply.text : '', annotations: [] }],
          },
        ];
  const cut = reply.kind === 'call' && reply.cutOff;
  return {
    id: 'resp_1',
    object: 'response',
    created_at: 1_767_000_000,
    status: cut ? 'incomplete' : 'completed',
    incomplete_details: cut ? { reason: 'max_output_tokens' } : null,
    model,
    output,
    usage,
    error: null,
  };
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function send(res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(body);
}

export async function startMockOpenAI(): Promise<MockOpenAI> {
  const queue: Reply[] = [];
  const noReply = (): Reply => ({ kind: 'error', status: 500, message: 'mock: no scripted reply left' });
  let fallback: (request: LoggedRequest) => Reply = noReply;
  const requests: LoggedRequest[] = [];
  const mock: MockOpenAI = {
    baseURL: '',
    requests,
    completions: () =>
      requests.filter((r) => r.path.endsWith('/chat/completions') || r.path.endsWith('/responses')),
    script: (...replies) => void queue.push(...replies),
    fallback: (handler) => void (fallback = handler),
    models: [...DEFAULT_MODELS],
    requireKey: undefined,
    reset: () => {
      queue.length = 0;
      requests.length = 0;
      fallback = noReply;
      mock.models = [...DEFAULT_MODELS];
      mock.requireKey = undefined;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };

  const server = createServer((req, res) => {
    void (async () => {
      const raw = await readBody(req);
      let body: unknown;
      try {
        body = raw ? JSON.parse(raw) : undefined;
      } catch {
        body = undefined;
      }
      const path = (req.url ?? '/').split('?')[0]!;
      const logged: LoggedRequest = {
        method: req.method ?? 'GET',
        path,
        headers: { ...req.headers },
        raw,
        body,
      };
      requests.push(logged);

      if (mock.requireKey !== undefined && req.headers.authorization !== `Bearer ${mock.requireKey}`) {
        return send(
          res,
          401,
          errorBody(401, 'Incorrect API key provided.', 'invalid_request_error', 'invalid_api_key'),
        );
      }
      if (req.method === 'GET' && path === '/v1/models') {
        return send(
          res,
          200,
          JSON.stringify({
            object: 'list',
            data: mock.models.map((id) => ({
              id,
              object: 'model',
              created: 1_767_000_000,
              owned_by: 'mock',
            })),
          }),
        );
      }
      const chat = path === '/v1/chat/completions';
      if (req.method !== 'POST' || !(chat || path === '/v1/responses')) {
        return send(
          res,
          404,
          errorBody(404, `mock: no route ${req.method} ${path}`, 'invalid_request_error'),
        );
      }
      const reply = queue.shift() ?? fallback(logged);
      const requested = String((body as { model?: unknown } | undefined)?.model ?? 'unknown');
      const model = reply.kind === 'call' && reply.model ? reply.model : requested;
      switch (reply.kind) {
        case 'hang':
          return;
        case 'stall':
          res.writeHead(200, { 'content-type': 'application/json' });
          res.write('{"id":"chatcmpl-1","choices":[');
          return;
        case 'error':
          // retry-after-ms keeps the SDK's retries of 429 and 5xx quick, unless the reply asks a wait
          return send(
            res,
            reply.status,
            errorBody(reply.status, reply.message, reply.type, reply.code ?? null),
            { 'retry-after-ms': String(reply.retryAfterMs ?? 1) },
          );
        default:
          return send(res, 200, JSON.stringify(chat ? chatBody(reply, model) : responsesBody(reply, model)));
      }
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  mock.baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return mock;
}

/** A port with nothing listening on it (bound, then released). */
export async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}
