import { readFile } from 'node:fs/promises';
import { AgentInputError, errorMessage } from '@suture/core/internal';
import { createLogger } from '../logger.js';
import { EXIT, exitCodeFor, UsageError } from '../exit.js';
import { loadMcp } from './mcp-load.js';

type SutureMcp = Awaited<ReturnType<typeof loadMcp>>;

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
 * `--call NAME`: the tool's JSON answer on stdout, exit 0. A call that fails answers on stdout
 * too, as a JSON object `{ "tool", "error", "key"? }` (`key`: the argument at fault), so an agent
 * that reads the tool's output reads why; exit 2 when the arguments are at fault, else 3.
 */
async function callCommand(mcp: SutureMcp, name: string, flags: ToolsFlags): Promise<number> {
  const fail = (code: number, error: string, key?: string): number => {
    process.stdout.write(`${JSON.stringify({ tool: name, error, ...(key ? { key } : {}) }, null, 2)}\n`);
    return code;
  };
  if (!mcp.findTool(name))
    return fail(
      EXIT.usage,
      `no such tool; suture's tools are ${mcp.SUTURE_TOOLS.map((t) => t.name).join(', ')}`,
    );
  try {
    const answer = await mcp.callTool(name, await readArguments(flags.input), {
      cwd: process.cwd(),
      ...(flags.config ? { configFile: flags.config } : {}),
      logger: createLogger(),
    });
    process.stdout.write(`${JSON.stringify(answer, null, 2)}\n`);
    return EXIT.green;
  } catch (error) {
    if (error instanceof AgentInputError) return fail(EXIT.usage, error.message, error.key);
    if (error instanceof UsageError) return fail(EXIT.usage, error.message);
    return fail(exitCodeFor(error), errorMessage(error));
  }
}

/**
 * `suture tools --format openai|mcp`: suture's agent tools as OpenAI function definitions (strict
 * JSON Schemas) or as MCP lists them. `--call NAME --input JSON` runs one, as a function-calling
 * agent does with a tool call it received, and prints the tool's JSON answer.
 */
export async function toolsCommand(flags: ToolsFlags): Promise<number> {
  const mcp = await loadMcp('suture tools');
  if (flags.call !== undefined) return callCommand(mcp, String(flags.call), flags);
  const format = flags.format ?? 'openai';
  if (format !== 'openai' && format !== 'mcp')
    throw new UsageError(`--format ${format}: expected openai or mcp`);
  const tools = format === 'openai' ? mcp.openAiTools() : mcp.mcpToolList();
  process.stdout.write(`${JSON.stringify(tools, null, 2)}\n`);
  return 0;
}
