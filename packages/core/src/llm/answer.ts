import { z } from 'zod';
import type { FixProposalInput, Usage } from '../api/contracts/fix.js';
import { redactDeep, type Redactor } from '../safety/redact.js';

/**
 * The answer an LLM fixer asks the model for. It is the FixProposal flattened into one object
 * whose fields are all required (absent ones are `null`), because that is the shape every
 * structured-output API accepts: OpenAI's strict mode rejects optional fields and unions of
 * objects, Anthropic tools and `claude --json-schema` take any JSON Schema.
 * `answerToProposal` turns it back into a FixProposal.
 */
export const LlmEditSchema = z
  .object({
    file: z.string().describe('Project-relative path of a file listed in the scope'),
    search: z
      .string()
      .nullable()
      .describe(
        'Exact text to replace, copied from the file, occurring exactly once in it (include enough surrounding lines); null for a whole-file replacement',
      ),
    replace: z.string().nullable().describe('Text that replaces `search`; null for a whole-file replacement'),
    content: z
      .string()
      .nullable()
      .describe('The whole new content of the file, only when search is null; otherwise null'),
  })
  .strict();

export const LlmBugSchema = z
  .object({
    summary: z.string().describe('One line: what the code under test does wrong'),
    expected: z.string().describe('What the test expects, and why that is right'),
    actual: z.string().describe('What the code does instead'),
    evidence: z.string().describe('The lines of the evidence and source that show it'),
    file: z.string().nullable().describe('Project-relative file where the defect is, if known'),
    symbol: z.string().nullable().describe('Function or method where the defect is, if known'),
  })
  .strict();

export const LlmAnswerSchema = z
  .object({
    verdict: z
      .enum(['edits', 'product-bug', 'unfixable'])
      .describe(
        'edits: a patch that makes the failing tests pass; product-bug: the test is right, the code under test is wrong and may not be edited; unfixable: no patch within the scope and policy',
      ),
    rationale: z
      .string()
      .describe('Why this is the root cause and why the patch fixes it (two or three sentences)'),
    edits: z.array(LlmEditSchema).describe('The patch when verdict is edits; otherwise an empty list'),
    bug: LlmBugSchema.nullable().describe('The bug report when verdict is product-bug; otherwise null'),
    diagnosis: z
      .string()
      .nullable()
      .describe('Why no patch is possible when verdict is unfixable; otherwise null'),
  })
  .strict();
export type LlmAnswer = z.infer<typeof LlmAnswerSchema>;

/** Name of the tool or function the model calls with its answer. */
export const ANSWER_TOOL_NAME = 'propose_fix';
export const ANSWER_TOOL_DESCRIPTION =
  'Return your answer to suture: a patch (verdict "edits"), a product-bug report, or "unfixable". Call this exactly once, at the end.';

/**
 * JSON Schema of the answer, as sent to the model (`claude --json-schema`, an Anthropic tool's
 * `input_schema`, an OpenAI strict function's `parameters`). Every property is required and
 * objects are closed, so it is valid for OpenAI's strict mode as it is.
 */
export function llmAnswerJsonSchema(): Record<string, unknown> {
  const { $schema: _ignored, ...schema } = z.toJSONSchema(LlmAnswerSchema, { target: 'draft-7' }) as Record<
    string,
    unknown
  >;
  return schema;
}

export type ParsedAnswer = { ok: true; proposal: FixProposalInput } | { ok: false; reason: string };

/** Fields models tend to leave out when they are null; filled in before validation. */
function withNulls(value: unknown): unknown {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return value;
  const answer: Record<string, unknown> = {
    edits: [],
    bug: null,
    diagnosis: null,
    rationale: '',
    ...(value as Record<string, unknown>),
  };
  if (Array.isArray(answer.edits)) {
    answer.edits = answer.edits.map((e: unknown) =>
      e && typeof e === 'object' && !Array.isArray(e)
        ? { search: null, replace: null, content: null, ...(e as Record<string, unknown>) }
        : e,
    );
  }
  if (answer.bug && typeof answer.bug === 'object')
    answer.bug = { file: null, symbol: null, ...(answer.bug as Record<string, unknown>) };
  return answer;
}

function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 4)
    .map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`)
    .join('; ');
}

/**
 * Validates what a model returned (an object, or a JSON string of one) and turns it into a
 * FixProposal. Never throws: a bad answer is a reason the attempt failed, said in terms a user
 * can act on.
 */
export function answerToProposal(raw: unknown, usage?: Usage): ParsedAnswer {
  let value = raw;
  if (typeof raw === 'string') {
    try {
      value = JSON.parse(raw);
    } catch {
      return { ok: false, reason: `the model's answer is not JSON: ${raw.slice(0, 200)}` };
    }
  }
  const parsed = LlmAnswerSchema.safeParse(withNulls(value));
  if (!parsed.success)
    return {
      ok: false,
      reason: `the model's answer does not match the proposal schema: ${describeIssues(parsed.error)}`,
    };
  const answer = parsed.data;
  const withUsage = usage ? { usage } : {};
  if (answer.verdict === 'unfixable') {
    return {
      ok: true,
      proposal: { verdict: 'unfixable', diagnosis: answer.diagnosis ?? answer.rationale, ...withUsage },
    };
  }
  if (answer.verdict === 'product-bug') {
    if (!answer.bug) return { ok: false, reason: 'the model answered product-bug without a bug report' };
    const { file, symbol, ...bug } = answer.bug;
    return {
      ok: true,
      proposal: {
        verdict: 'product-bug',
        rationale: answer.rationale,
        bug: { ...bug, ...(file ? { file } : {}), ...(symbol ? { symbol } : {}) },
        ...withUsage,
      },
    };
  }
  if (answer.edits.length === 0) return { ok: false, reason: 'the model answered "edits" with no edit' };
  const edits: Array<{ file: string; search: string; replace: string } | { file: string; content: string }> =
    [];
  for (const [i, e] of answer.edits.entries()) {
    if (e.search !== null && e.search !== '')
      edits.push({ file: e.file, search: e.search, replace: e.replace ?? '' });
    else if (e.content !== null) edits.push({ file: e.file, content: e.content });
    else
      return {
        ok: false,
        reason: `edits.${i} (${e.file}) has neither a search text nor a whole-file content`,
      };
  }
  return { ok: true, proposal: { verdict: 'edits', edits, rationale: answer.rationale, ...withUsage } };
}

/**
 * The proposal with secrets masked in the texts that reach reports: the rationale, the diagnosis
 * and the bug report. A fixer applies its own redactor, which knows secrets the gate does not (a
 * key from the config file). Edits are left alone: they are the patch itself.
 */
export function redactProposal(proposal: FixProposalInput, redact: Redactor): FixProposalInput {
  if (proposal.verdict === 'unfixable') return { ...proposal, diagnosis: redact(proposal.diagnosis) };
  if (proposal.verdict === 'product-bug') {
    return {
      ...proposal,
      bug: redactDeep(proposal.bug, redact),
      ...(proposal.rationale !== undefined ? { rationale: redact(proposal.rationale) } : {}),
    };
  }
  return { ...proposal, rationale: redact(proposal.rationale) };
}
