import { readFileSync } from 'node:fs';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Fixer, Logger } from '@suture/core';
import { errorMessage } from '@suture/core/host';
import { SUTURE_TOOLS, type SutureTool } from './tools.js';

const version = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

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

  for (const tool of SUTURE_TOOLS) {
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
  }

  return {
    server,
    async shutdown(reason) {
      if (running.size > 0) options.logger.warn(`stopping ${running.size} call(s): ${reason}`);
      for (const entry of running) entry.controller.abort();
      await Promise.allSettled([...running].map((e) => e.done));
    },
  };
}
