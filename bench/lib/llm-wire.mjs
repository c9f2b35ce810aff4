// A local LLM endpoint for the benchmarks: the Anthropic Messages API (SSE for the claude CLI,
// JSON for the SDK) and OpenAI's Chat Completions, with tokens counted from what was sent (4
// characters a token) and both providers' prompt caches counted as they document them. What the
// model answers is a function the benchmark passes; the endpoint may also be made to fail.
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';

const ANSWER_TOOLS = ['StructuredOutput', 'propose_fix'];
/** Anthropic caches nothing shorter than this (Sonnet and Opus 4; Haiku needs more). */
const ANTHROPIC_MIN_CACHE = 1024;
/** OpenAI caches prompts from 1,024 tokens on, in steps of 128. */
const OPENAI_MIN_CACHE = 1024;

const tokensOf = (chars) => Math.ceil(chars / 4);

async function readBody(req) {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  const text = Buffer.concat(chunks).toString('utf8');
  return text ? JSON.parse(text) : undefined;
}

/** Tools, system blocks, then every message block, in cache order, each with its cache mark. */
function anthropicBlocks(body) {
  const blocks = [...(body.tools ?? [])];
  if (typeof body.system === 'string') blocks.push({ type: 'text', text: body.system });
  else blocks.push(...(body.system ?? []));
  for (const m of body.messages ?? []) {
    if (typeof m.content === 'string') blocks.push({ role: m.role, text: m.content });
    else for (const b of m.content) blocks.push({ role: m.role, ...b });
  }
  return blocks.map((b) => ({
    json: JSON.stringify(b, (k, v) => (k === 'cache_control' ? undefined : v)),
    marked: Boolean(b.cache_control),
  }));
}

/**
 * Anthropic's prompt cache: the longest prefix a mark of an earlier request wrote is read, and
 * this request's marked prefixes beyond it are written (none shorter than the minimum).
 */
function anthropicUsage(cache, body) {
  const blocks = anthropicBlocks(body);
  const chars = [0];
  for (const b of blocks) chars.push(chars.at(-1) + b.json.length);
  const key = (n) =>
    blocks
      .slice(0, n)
      .map((b) => b.json)
      .join('\u0000');
  const marks = blocks.flatMap((b, i) => (b.marked ? [i + 1] : []));
  // A lookup tries every block boundary up to 20 blocks before each mark, longest first.
  let read = 0;
  for (const mark of marks)
    for (let n = mark; n > Math.max(read, mark - 20); n--)
      if (cache.has(key(n))) {
        read = n;
        break;
      }
  let written = read;
  for (const n of marks) {
    if (n > read && tokensOf(chars[n]) >= ANTHROPIC_MIN_CACHE) {
      cache.add(key(n));
      written = n;
    }
  }
  const total = tokensOf(chars.at(-1));
  const cacheRead = tokensOf(chars[read]);
  const cacheWrite = tokensOf(chars[written]) - cacheRead;
  return {
    input_tokens: Math.max(0, total - cacheRead - cacheWrite),
    cache_read_input_tokens: cacheRead,
    cache_creation_input_tokens: cacheWrite,
  };
}

/** OpenAI's automatic cache: the longest prefix an earlier request shared, from 1,024 tokens, in steps of 128. */
function openaiUsage(seen, body) {
  const text = JSON.stringify([body.tools ?? [], body.messages ?? []]);
  let common = 0;
  for (const earlier of seen) {
    let i = 0;
    const n = Math.min(earlier.length, text.length);
    while (i < n && earlier.charCodeAt(i) === text.charCodeAt(i)) i++;
    common = Math.max(common, i);
  }
  seen.push(text);
  const shared = tokensOf(common);
  const cached =
    shared >= OPENAI_MIN_CACHE ? OPENAI_MIN_CACHE + Math.floor((shared - OPENAI_MIN_CACHE) / 128) * 128 : 0;
  return { prompt: tokensOf(text.length), cached };
}

function sse(res, event, data) {
  res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
}

function streamMessage(res, message, block, usage, stopReason) {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  sse(res, 'message_start', {
    type: 'message_start',
    message: { ...message, content: [], stop_reason: null, stop_sequence: null, usage },
  });
  const start = block.type === 'text' ? { type: 'text', text: '' } : { ...block, input: {} };
  sse(res, 'content_block_start', { type: 'content_block_start', index: 0, content_block: start });
  const delta =
    block.type === 'text'
      ? { type: 'text_delta', text: block.text }
      : { type: 'input_json_delta', partial_json: JSON.stringify(block.input) };
  sse(res, 'content_block_delta', { type: 'content_block_delta', index: 0, delta });
  sse(res, 'content_block_stop', { type: 'content_block_stop', index: 0 });
  sse(res, 'message_delta', {
    type: 'message_delta',
    delta: { stop_reason: stopReason, stop_sequence: null },
    usage: { output_tokens: usage.output_tokens },
  });
  sse(res, 'message_stop', { type: 'message_stop' });
  res.end();
}

function json(res, status, body) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

/**
 * Starts the endpoint on a free port of 127.0.0.1.
 *   model(call) -> { tool: name, input } | { text }: what the model answers; call is
 *     { api: 'anthropic' | 'openai', body, tools: [names], answerTool }
 *   behaviour: 'answer' (default), 'error' (every model call gets a 500), 'hang' (model calls
 *     are read and never answered)
 *   dump: a folder to write every request body to ($SUTURE_BENCH_DUMP)
 * Returns { url, stats: { requests, modelCalls, usage: the tokens billed }, close }.
 */
export async function startLlmEndpoint({
  model,
  behaviour = 'answer',
  dump = process.env.SUTURE_BENCH_DUMP,
}) {
  const stats = { requests: 0, modelCalls: 0, usage: { input: 0, cacheRead: 0, cacheWrite: 0, output: 0 } };
  const bill = (input, cacheRead, cacheWrite, output) => {
    stats.usage.input += input;
    stats.usage.cacheRead += cacheRead;
    stats.usage.cacheWrite += cacheWrite;
    stats.usage.output += output;
  };
  const open = new Set();
  const anthropicCache = new Set();
  const openaiSeen = [];
  let ids = 0;

  async function handle(req, res) {
    stats.requests++;
    const path = (req.url ?? '/').split('?')[0];
    if (req.method === 'HEAD') return void res.writeHead(200).end();
    if (req.method === 'GET' && path.endsWith('/models'))
      return json(res, 200, {
        object: 'list',
        data: [{ type: 'model', object: 'model', id: 'claude-sonnet-4-6' }],
        has_more: false,
      });
    const body = req.method === 'POST' ? await readBody(req) : undefined;
    if (dump && body)
      writeFileSync(
        join(dump, `${String(stats.requests).padStart(4, '0')}.json`),
        JSON.stringify(body, null, 1),
      );
    if (path.endsWith('/count_tokens'))
      return json(res, 200, { input_tokens: tokensOf(JSON.stringify(body?.messages ?? '').length) });
    const anthropic = path.endsWith('/v1/messages');
    if (!anthropic && !path.endsWith('/chat/completions'))
      return json(res, 404, { error: { message: `no route for ${path}` } });
    stats.modelCalls++;
    if (behaviour === 'hang') return;
    if (behaviour === 'error')
      return anthropic
        ? json(res, 500, { type: 'error', error: { type: 'api_error', message: 'the endpoint is down' } })
        : json(res, 500, { error: { message: 'the endpoint is down', type: 'server_error' } });
    const names = (body.tools ?? []).map((t) => t.name ?? t.function?.name);
    const answerTool = names.find((n) => ANSWER_TOOLS.includes(n));
    // A call without the answer tool is one of claude's own (a title, a summary): a short text.
    const decision = answerTool
      ? model({ api: anthropic ? 'anthropic' : 'openai', body, tools: names, answerTool })
      : { text: 'Bench' };
    const id = ++ids;
    if (anthropic) {
      const block =
        'tool' in decision
          ? { type: 'tool_use', id: `toolu_${id}`, name: decision.tool, input: decision.input }
          : { type: 'text', text: decision.text };
      const usage = {
        ...anthropicUsage(anthropicCache, body),
        output_tokens: tokensOf(JSON.stringify(block).length),
      };
      bill(
        usage.input_tokens,
        usage.cache_read_input_tokens,
        usage.cache_creation_input_tokens,
        usage.output_tokens,
      );
      const message = { id: `msg_${id}`, type: 'message', role: 'assistant', model: body.model };
      const stop = block.type === 'tool_use' ? 'tool_use' : 'end_turn';
      if (body.stream) return streamMessage(res, message, block, usage, stop);
      return json(res, 200, { ...message, content: [block], stop_reason: stop, stop_sequence: null, usage });
    }
    const { prompt, cached } = openaiUsage(openaiSeen, body);
    const args = 'tool' in decision ? JSON.stringify(decision.input) : undefined;
    const output = tokensOf((args ?? decision.text).length);
    bill(prompt - cached, cached, 0, output);
    return json(res, 200, {
      id: `chatcmpl-${id}`,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: body.model,
      choices: [
        {
          index: 0,
          finish_reason: args ? 'tool_calls' : 'stop',
          message: {
            role: 'assistant',
            content: args ? null : decision.text,
            refusal: null,
            ...(args
              ? {
                  tool_calls: [
                    {
                      id: `call_${id}`,
                      type: 'function',
                      function: { name: decision.tool, arguments: args },
                    },
                  ],
                }
              : {}),
          },
        },
      ],
      usage: {
        prompt_tokens: prompt,
        completion_tokens: output,
        total_tokens: prompt + output,
        prompt_tokens_details: { cached_tokens: cached },
      },
    });
  }

  const server = createServer((req, res) => {
    open.add(res);
    res.on('close', () => open.delete(res));
    handle(req, res).catch((error) => {
      if (!res.headersSent) json(res, 500, { error: { message: `bench endpoint: ${String(error)}` } });
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    stats,
    close: async () => {
      for (const res of open) res.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** A port nothing listens on: an endpoint that is down. */
export async function deadEndpoint() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}`;
}
