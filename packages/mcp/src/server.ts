import { readFileSync } from 'node:fs';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { Fixer, Logger } from '@suture/core';
import type { SutureTool } from './tools.js';

/** The message of a thrown value (as `@suture/core/host`'s, which this module must not load before the handshake). */
export const errorMessage = (error: unknown): string =>
  error instanceof Error ? error.message : String(error);

const version = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

/** What a client may send before the tools have loaded: the handshake and a liveness check. */
const EARLY = new Set(['initialize', 'notifications/initialized', 'ping']);

/**
 * Makes the transport hand the server a request other than `initialize` or `ping`, and every
 * message after it, only once `ready` has settled, in the order they came: the handshake is
 * answered at once, and the tools are listed and called once they are there.
 */
function holdUntil(transport: Transport, ready: Promise<void>): void {
  let deliver: Transport['onmessage'];
  let queue: Promise<void> | undefined;
  const settled = ready.then(
    () => undefined,
    () => undefined,
  );
  Object.defineProperty(transport, 'onmessage', {
    configurable: true,
    get: () => deliver,
    set: (handler: Transport['onmessage']) => {
      deliver =
        handler &&
        ((message, extra) => {
          const method = (message as { method?: unknown }).method;
          if (!queue && typeof method === 'string' && EARLY.has(method)) return handler(message, extra);
          queue = (queue ?? settled)
            .then(() => handler(message, extra))
            .catch((error: unknown) =>
              transport.onerror?.(error instanceof Error ? error : new Error(errorMessage(error))),
            );
        });
    },
  });
}

/** How often a long call says it is still going, so a client that resets its timeout on progress waits. */
const HEARTBEAT_MS = 10_000;

export interface SutureServerOptions {
  /** Where the config is looked for (walking up); the server's working folder by default. */
  cwd?: string;
  /** The config file, when not found from `cwd`. */
  configFile?: string;
  /** Log lines (never on stdout, which carries the protocol). */
  logger: Logger;
}

export interface SutureServer {
  server: McpServer;
  /**
   * Resolves once the tools are registered. They load after the server is made (suture's engine
   * takes a while to load), so that a client's `initialize` is answered first; the server holds
   * the client's other requests until then, in order.
   */
  ready: Promise<void>;
  /**
   * Stops every call in progress (their gates stop, their copies are removed, nothing is written)
   * and resolves when they have all ended.
   */
  shutdown(reason: string): Promise<void>;
}

interface ToolExtra {
  signal: AbortSignal;
  _meta?: { progressToken?: string | number };
  sendNotification: (notification: {
    method: 'notifications/progress';
    params: { progressToken: string | number; progress: number; message?: string };
  }) => Promise<void>;
}

/**
 * The MCP server: suture_run, suture_heal, suture_apply and suture_report over any transport.
 * Each answer is structured content (checked against the tool's output schema) and the same JSON
 * as text, for clients that read only text. A call whose request carries a progress token gets
 * progress notifications as the gate goes (and a heartbeat while a step is long).
 */
export function createSutureServer(options: SutureServerOptions): SutureServer {
  const server = new McpServer(
    { name: 'suture', version },
    {
      instructions:
        'suture runs the real test suites of this repository and proposes verified fixes without writing your files. Call suture_run to see what fails, suture_heal with a change_description to get a validated patch (keep the session_id for follow-up calls), and suture_apply to write a patch you accept.',
    },
  );
  const running = new Set<{ controller: AbortController; done: Promise<unknown> }>();
  const fixerMemory = new Map<string, Fixer[]>();

  const handler =
    (tool: SutureTool) =>
    async (
      args: unknown,
      extra: ToolExtra,
    ): Promise<{
      content: Array<{ type: 'text'; text: string }>;
      structuredContent?: Record<string, unknown>;
      isError?: boolean;
    }> => {
      const controller = new AbortController();
      const onAbort = (): void => controller.abort();
      extra.signal.addEventListener('abort', onAbort, { once: true });
      const token = extra._meta?.progressToken;
      let step = 0;
      let last = `${tool.name} started`;
      const notify = (message: string): void => {
        if (token === undefined) return;
        extra
          .sendNotification({
            method: 'notifications/progress',
            params: { progressToken: token, progress: ++step, message },
          })
          .catch(() => undefined);
      };
      const onProgress = (message: string): void => {
        last = message;
        options.logger.info(`${tool.name}: ${message}`);
        notify(message);
      };
      const heartbeat = setInterval(() => notify(`still working: ${last}`), HEARTBEAT_MS);
      heartbeat.unref();
      const done = tool.call(args, {
        cwd: options.cwd ?? process.cwd(),
        ...(options.configFile ? { configFile: options.configFile } : {}),
        logger: options.logger,
        signal: controller.signal,
        onProgress,
        fixerMemory,
      });
      const entry = { controller, done };
      running.add(entry);
      try {
        const answer = tool.output.parse(await done) as Record<string, unknown>;
        return {
          content: [{ type: 'text', text: JSON.stringify(answer, null, 2) }],
          structuredContent: answer,
        };
      } catch (error) {
        options.logger.warn(`${tool.name}: ${errorMessage(error)}`);
        return {
          content: [{ type: 'text', text: `${tool.name} failed: ${errorMessage(error)}` }],
          isError: true,
        };
      } finally {
        clearInterval(heartbeat);
        running.delete(entry);
        extra.signal.removeEventListener('abort', onAbort);
      }
    };

  // The tool handlers and the `tools` capability must exist before the server connects; the
  // tools themselves are registered once they have loaded.
  server
    .registerTool('suture_loading', { description: 'suture is loading' }, () => ({ content: [] }))
    .remove();
  const register = (tool: SutureTool): void => {
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: tool.input,
        outputSchema: tool.output,
        annotations: {
          title: tool.title,
          readOnlyHint: tool.readOnly,
          destructiveHint: false,
          openWorldHint: tool.openWorld,
        },
      },
      handler(tool) as never,
    );
  };
  const ready = import('./tools.js').then(({ SUTURE_TOOLS }) => SUTURE_TOOLS.forEach(register));
  // a caller that never waits for it must not crash on a failed load; one that waits sees it
  ready.catch(() => undefined);
  // Whatever the transport, the handshake is answered at once and the rest waits for the tools.
  const connect = server.connect.bind(server);
  server.connect = (transport: Transport): Promise<void> => {
    holdUntil(transport, ready);
    return connect(transport);
  };

  return {
    server,
    ready,
    async shutdown(reason) {
      if (running.size > 0) options.logger.warn(`stopping ${running.size} call(s): ${reason}`);
      for (const entry of running) entry.controller.abort();
      await Promise.allSettled([...running].map((e) => e.done));
    },
  };
}
