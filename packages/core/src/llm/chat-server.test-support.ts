import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ANSWER_TOOL_NAME, llmAnswerJsonSchema } from './answer.js';
import { bufferedFetch } from './buffered-fetch.js';
import { callFailureReason, failureOfStatus, type CallSite } from './call-failure.js';
import type { LlmTransport } from './llm-fixer.js';
import { missingAnswerReason } from './missing-answer.js';

/**
 * A local server speaking the wire format of Chat Completions, and a transport over plain fetch
 * that talks to it: the smallest real LLM package, for the tests of the fixer base.
 */

export type ChatReply =
  | { kind: 'call'; answer: unknown; model?: string; input?: number; output?: number }
  | { kind: 'text'; text: string }
  | { kind: 'error'; status: number; message: string }
  /** Headers, then nothing. */
  | { kind: 'stall' };

export interface ChatMessage {
  role: string;
  content: string | null;
  tool_calls?: unknown[];
}

export interface ChatServer {
  url: string;
  /** The parsed bodies and the headers of every request, in order. */
  requests: Array<{ headers: Record<string, unknown>; body: { model: string; messages: ChatMessage[] } }>;
  script(...replies: ChatReply[]): void;
  close(): Promise<void>;
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

export async function startChatServer(): Promise<ChatServer> {
  const queue: ChatReply[] = [];
  const requests: ChatServer['requests'] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ChatServer['requests'][0]['body'];
      requests.push({ headers: req.headers, body });
      const reply = queue.shift() ?? { kind: 'error', status: 500, message: 'no scripted reply left' };
      if (reply.kind === 'stall') {
        res.writeHead(200, { 'content-type': 'application/json' });
        return void res.write('{"object":');
      }
      if (reply.kind === 'error') return send(res, reply.status, { error: { message: reply.message } });
      const message =
        reply.kind === 'call'
          ? {
              role: 'assistant',
              content: null,
              tool_calls: [
                {
                  id: `call_${requests.length}`,
                  type: 'function',
                  function: { name: ANSWER_TOOL_NAME, arguments: JSON.stringify(reply.answer) },
                },
              ],
            }
          : { role: 'assistant', content: reply.text };
      const call = reply.kind === 'call' ? reply : undefined;
      send(res, 200, {
        object: 'chat.completion',
        model: call?.model ?? body.model,
        choices: [{ index: 0, message, finish_reason: call ? 'tool_calls' : 'stop' }],
        usage: { prompt_tokens: call?.input ?? 1000, completion_tokens: call?.output ?? 100 },
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    requests,
    script: (...replies) => void queue.push(...replies),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

interface Completion {
  model: string;
  choices: Array<{ message: ChatMessage & { tool_calls?: Array<{ function: { arguments: string } }> } }>;
  usage: { prompt_tokens: number; completion_tokens: number };
}

/** A Chat Completions transport that keeps the message history as its conversation. */
export function chatTransport(site: CallSite, key: string): LlmTransport<ChatMessage[]> {
  const tool = { type: 'function', function: { name: ANSWER_TOOL_NAME, parameters: llmAnswerJsonSchema() } };
  return {
    answer: `Answer by calling ${ANSWER_TOOL_NAME}.`,
    async send({ prompt, continues, meter }, ctx) {
      const messages: ChatMessage[] = [
        ...(continues ?? [{ role: 'system', content: prompt.system }]),
        { role: 'user', content: prompt.user },
      ];
      const started = Date.now();
      const response = await bufferedFetch(`${site.endpoint}${site.path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: site.model, messages, tools: [tool] }),
        signal: AbortSignal.any([ctx.signal, AbortSignal.timeout(site.timeoutMs)]),
      });
      const body = (await response.json()) as Completion & { error?: { message: string } };
      if (!response.ok)
        throw new Error(callFailureReason(failureOfStatus(response.status, body.error!.message), site));
      const message = body.choices[0]!.message;
      const usage = meter({
        model: body.model,
        configuredModel: site.model,
        inputTokens: body.usage.prompt_tokens,
        outputTokens: body.usage.completion_tokens,
        cacheReadTokens: 0,
        cacheWriteTokens: 0,
        durationMs: Date.now() - started,
      });
      const call = message.tool_calls?.[0];
      if (!call) {
        const failure = missingAnswerReason({
          model: body.model,
          expected: ANSWER_TOOL_NAME,
          text: message.content ?? '',
        });
        return { usage, failure, conversation: null };
      }
      return { usage, answer: call.function.arguments, conversation: [...messages, message] };
    },
  };
}
