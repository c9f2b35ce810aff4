import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local Anthropic Messages API for the real `claude` binary as an agent: requests that offer
 * `tool` (the agent's turns) take the scripted replies in order, a tool call or text; any other
 * request (titles, summaries) gets a short text. Replies stream as SSE, as the CLI asks. Every
 * request is logged.
 */

export type AgentReply = { kind: 'tool'; name: string; input: unknown } | { kind: 'text'; text: string };

export interface LoggedMessages {
  path: string;
  body: { tools?: Array<{ name: string }>; messages?: Array<{ role: string; content: unknown }> } | undefined;
  /** True when the request offered the scripted tool. */
  agent: boolean;
}

export interface MockMessages {
  url: string;
  requests: LoggedMessages[];
  script(...replies: AgentReply[]): void;
  close(): Promise<void>;
}

function sse(res: ServerResponse, event: string, data: unknown): void {
  res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
}

function stream(res: ServerResponse, id: number, model: string, reply: AgentReply): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'request-id': `req_${id}` });
  const usage = {
    input_tokens: 100,
    output_tokens: 20,
    cache_read_input_tokens: 0,
    cache_creation_input_tokens: 0,
  };
  sse(res, 'message_start', {
    type: 'message_start',
    message: {
      id: `msg_${id}`,
      type: 'message',
      role: 'assistant',
      model,
      content: [],
      stop_reason: null,
      usage,
    },
  });
  if (reply.kind === 'tool') {
    sse(res, 'content_block_start', {
      type: 'content_block_start',
      index: 0,
      content_block: { type: 'tool_use', id: `toolu_${id}`, name: reply.name, input: {} },
    });
    sse(res, 'content_block_delta', {
      type: 'content_block_delta',
      index: 0,
      delta: { type: 'input_json_delta', partial_json: JSON.stringify(reply.input) },
    });
  } else {
    sse(res, 'content_block_start', {
      type: 'content_block_start',
      index: 0,
      content_block: { type: 'text', text: '' },
    });
    sse(res, 'content_block_delta', {
      type: 'content_block_delta',
      index: 0,
      delta: { type: 'text_delta', text: reply.text },
    });
  }
  sse(res, 'content_block_stop', { type: 'content_block_stop', index: 0 });
  sse(res, 'message_delta', {
    type: 'message_delta',
    delta: { stop_reason: reply.kind === 'tool' ? 'tool_use' : 'end_turn', stop_sequence: null },
    usage: { output_tokens: 20 },
  });
  sse(res, 'message_stop', { type: 'message_stop' });
  res.end();
}

export async function startMockMessages(tool: string): Promise<MockMessages> {
  const requests: LoggedMessages[] = [];
  const queue: AgentReply[] = [];
  let ids = 0;
  const server = createServer((req, res) => {
    void (async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const raw = Buffer.concat(chunks).toString('utf8');
      const body = raw
        ? (JSON.parse(raw) as LoggedMessages['body'] & { stream?: boolean; model?: string })
        : undefined;
      const path = req.url ?? '/';
      if (req.method !== 'POST' || !path.startsWith('/v1/messages') || path.includes('count_tokens')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(req.method === 'HEAD' ? undefined : JSON.stringify({ input_tokens: 10, data: [] }));
        return;
      }
      const agent = (body?.tools ?? []).some((t) => t.name === tool);
      requests.push({ path, body, agent });
      const reply: AgentReply = (agent ? queue.shift() : undefined) ?? { kind: 'text', text: 'Mock title' };
      const id = ++ids;
      const model = body?.model ?? 'claude-mock';
      if (body?.stream) return stream(res, id, model, reply);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          id: `msg_${id}`,
          type: 'message',
          role: 'assistant',
          model,
          content: [
            reply.kind === 'tool'
              ? { type: 'tool_use', id: `toolu_${id}`, name: reply.name, input: reply.input }
              : { type: 'text', text: reply.text },
          ],
          stop_reason: reply.kind === 'tool' ? 'tool_use' : 'end_turn',
          stop_sequence: null,
          usage: { input_tokens: 100, output_tokens: 20 },
        }),
      );
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    script: (...replies) => void queue.push(...replies),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
