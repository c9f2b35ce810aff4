import {
  ApplyAnswerSchema,
  ApplyInputSchema,
  applyProposedPatch,
  HealAnswerSchema,
  HealInputSchema,
  proposeHeal,
  ReportAnswerSchema,
  ReportInputSchema,
  reportForAgent,
  RunAnswerSchema,
  RunInputSchema,
  runForAgent,
  type AgentCallOptions,
} from '@suture/core/host';
import type { z } from '@suture/core';

/** What a tool call runs with: the repository, where to report progress, when to stop. */
export type ToolContext = AgentCallOptions;

/** One agent tool: its name, what a model reads about it, its zod schemas and what it runs. */
export interface SutureTool {
  name: string;
  title: string;
  description: string;
  input: z.ZodObject;
  output: z.ZodObject;
  /** Never writes the caller's files. */
  readOnly: boolean;
  /**
   * May reach what is outside the repository (MCP's openWorldHint): a heal asks the configured
   * fixers, and an LLM fixer calls its model's API; the other tools touch only the repository.
   */
  openWorld: boolean;
  call(args: unknown, context: ToolContext): Promise<unknown>;
}

/**
 * The tools, one table for MCP and for OpenAI function calling: both read the same names,
 * descriptions and zod schemas, so the two can never disagree.
 */
export const SUTURE_TOOLS: readonly SutureTool[] = [
  {
    name: 'suture_run',
    title: 'Run the test gate',
    description:
      "Runs the repository's real test suites (pytest, CMake/CTest, Jest, ...) as configured in suture.config.json and answers which tests fail, grouped by root cause with kind and location. Asks no fixer and writes no project file.",
    input: RunInputSchema,
    output: RunAnswerSchema,
    readOnly: true,
    openWorld: false,
    call: (args, context) => runForAgent(args, context),
  },
  {
    name: 'suture_heal',
    title: 'Propose a verified fix',
    description:
      'Propose-only healing: runs the tests on a private copy of the repository, locates each failure, asks the configured fixers for a patch inside a justified scope, and re-runs the failing tests to verify it. Never writes your files. Answers status fixed (one validated patch), candidates (several, or the closest when none passes) or unfixable (with the analysis), a session_id to continue with (the fixer then sees the earlier attempts), the four phases (analyse, plan, patch, verify) and totals. Apply a patch with suture_apply.',
    input: HealInputSchema,
    output: HealAnswerSchema,
    readOnly: true,
    openWorld: true,
    call: (args, context) => proposeHeal(args, context),
  },
  {
    name: 'suture_apply',
    title: 'Apply a proposed patch',
    description:
      "Writes a patch returned by suture_heal to the working tree through suture's journal (a crash midway is undone by `suture recover`). Refuses, writing nothing, when any file the patch touches changed since the heal read it.",
    input: ApplyInputSchema,
    output: ApplyAnswerSchema,
    readOnly: false,
    openWorld: false,
    call: (args, context) => applyProposedPatch(args, context),
  },
  {
    name: 'suture_report',
    title: 'Read an earlier run or session',
    description:
      "Reads the report of an earlier suture run (the latest by default, or run_id) or a heal session's latest answer (session_id). Runs nothing.",
    input: ReportInputSchema,
    output: ReportAnswerSchema,
    readOnly: true,
    openWorld: false,
    call: (args, context) => reportForAgent(args, context),
  },
];

export function findTool(name: string): SutureTool | undefined {
  return SUTURE_TOOLS.find((t) => t.name === name);
}

/**
 * Runs a tool by name with arguments as a model sent them (OpenAI's strict mode sends null for
 * what it leaves out): how a function-calling agent executes suture's tools in process.
 */
export async function callTool(name: string, args: unknown, context: ToolContext): Promise<unknown> {
  const tool = findTool(name);
  if (!tool)
    throw new Error(
      `unknown tool "${name}"; suture's tools are ${SUTURE_TOOLS.map((t) => t.name).join(', ')}`,
    );
  return tool.output.parse(await tool.call(args, context));
}
