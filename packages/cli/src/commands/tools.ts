import { readFile } from 'node:fs/promises';
import { AgentInputError } from '@suture/core/internal';
import { createLogger } from '../logger.js';
import { UsageError } from '../exit.js';
import { loadMcp } from './mcp-load.js';

export interface ToolsFlags {
  format?: string;
  /** Run this tool instead of printing the definitions. */
  call?: string;
  /** The call's arguments as JSON, `-` for stdin, or `@file`. */
  input?: string;
  config?: string;
}

async function readArguments(value: string | undefined): Promise<unknown> {
  if (value === undefined) return {};
  let text = value;
  if (value === '-') {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    text = Buffer.concat(chunks).toString('utf8');
  } else if (value.startsWith('@')) text = await readFile(value.slice(1), 'utf8');
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new UsageError(
      `--input is not JSON (${(error as Error).message}); give the tool's arguments as an object`,
    );
  }
}

/**
 * `suture tools --format openai|mcp`: suture's agent tools as OpenAI function definitions (strict
 * JSON Schemas) or as MCP lists them. `--call NAME --input JSON` runs one, as a function-calling
 * agent does with a tool call it received, and prints the tool's JSON answer.
 */
export async function toolsCommand(flags: ToolsFlags): Promise<number> {
  const mcp = await loadMcp('suture tools');
  if (flags.call !== undefined) {
    const name = String(flags.call);
    if (!mcp.findTool(name))
      throw new UsageError(
        `--call ${name}: no such tool; suture's tools are ${mcp.SUTURE_TOOLS.map((t) => t.name).join(', ')}`,
      );
    try {
      const answer = await mcp.callTool(name, await readArguments(flags.input), {
        cwd: process.cwd(),
        ...(flags.config ? { configFile: flags.config } : {}),
        logger: createLogger(),
      });
      process.stdout.write(`${JSON.stringify(answer, null, 2)}\n`);
      return 0;
    } catch (error) {
      if (error instanceof AgentInputError) throw new UsageError(error.message);
      throw error;
    }
  }
  const format = flags.format ?? 'openai';
  if (format !== 'openai' && format !== 'mcp')
    throw new UsageError(`--format ${format}: expected openai or mcp`);
  const tools = format === 'openai' ? mcp.openAiTools() : mcp.mcpToolList();
  process.stdout.write(`${JSON.stringify(tools, null, 2)}\n`);
  return 0;
}
