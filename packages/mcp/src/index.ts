/**
 * `@suture/mcp`: suture for coding agents. An MCP server (`suture mcp`, or `suture-mcp`) with the
 * tools suture_run, suture_heal (propose-only), suture_apply and suture_report, and the same
 * tools as OpenAI function definitions with strict JSON Schemas.
 */
export { createSutureServer, type SutureServer, type SutureServerOptions } from './server.js';
export { serveStdio } from './stdio.js';
export { SUTURE_TOOLS, callTool, findTool, type SutureTool, type ToolContext } from './tools.js';
export {
  openAiTools,
  mcpToolList,
  strictJsonSchema,
  inputJsonSchema,
  type OpenAiFunctionTool,
} from './openai.js';
export {
  HealInputSchema,
  HealAnswerSchema,
  RunInputSchema,
  RunAnswerSchema,
  ApplyInputSchema,
  ApplyAnswerSchema,
  ReportInputSchema,
  ReportAnswerSchema,
  type HealInput,
  type HealAnswer,
  type RunAnswer,
  type ApplyAnswer,
  type ReportAnswer,
} from '@suture/core/host';
