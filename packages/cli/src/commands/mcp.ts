import { createLogger } from '../logger.js';
import { loadMcpStdio } from './mcp-load.js';

export interface McpFlags {
  config?: string;
}

/**
 * `suture mcp`: the MCP server on stdio (tools suture_run, suture_heal, suture_apply,
 * suture_report) until the client closes the connection. stdout carries the protocol only; log
 * lines go to stderr.
 */
export async function mcpCommand(flags: McpFlags): Promise<number> {
  const { serveStdio } = await loadMcpStdio('suture mcp');
  await serveStdio({
    cwd: process.cwd(),
    ...(flags.config ? { configFile: flags.config } : {}),
    logger: createLogger(process.stderr),
  });
  // Stopped by a signal, stdin may still be open: it would keep the process alive.
  process.stdin.destroy();
  return 0;
}
