/**
 * `@suture/core/llm`: what LLM fixers share, so each LLM package keeps only its transport: the
 * prompt templates and their rendering, the answer schema and its conversion to a proposal,
 * pricing and usage, and redaction.
 */
export {
  ANSWER_TOOL_DESCRIPTION,
  ANSWER_TOOL_NAME,
  LlmAnswerSchema,
  LlmBugSchema,
  LlmEditSchema,
  answerToProposal,
  llmAnswerJsonSchema,
  redactProposal,
  type LlmAnswer,
  type ParsedAnswer,
} from './answer.js';
export {
  FIXER_SYSTEM_PROMPT,
  PROMPT_PLACEHOLDERS,
  loadPromptTemplates,
  promptKindFor,
  renderFixPrompt,
  type PromptKind,
  type PromptTemplates,
  type RenderOptions,
  type RenderedPrompt,
} from './prompt.js';
export {
  ModelPriceSchema,
  PriceTableSchema,
  addUsage,
  costOf,
  emptyUsage,
  findPrice,
  type ModelPrice,
  type PriceTable,
} from './pricing.js';
export { PromptOverridesSchema, type PromptOverrides } from './options.js';
export { REDACTED, createRedactor, redactDeep, type Redactor } from '../safety/redact.js';
