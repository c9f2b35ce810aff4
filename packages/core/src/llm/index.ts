/**
 * `@suture/core/llm`: what LLM fixers share, so each LLM package keeps only its transport: the
 * fixer base (`llmFixer`), the common options and their settling (key, prices, prompts,
 * redaction), the prompt templates and conversations, the answer schema and its conversion to a
 * proposal, pricing and usage, and one wording for failed calls.
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
export { KEY_FROM_OPTION, keyFix, resolveApiKey, type ApiKey } from './api-key.js';
export {
  EnvNameSchema,
  LlmOptionsSchema,
  resolveLlmSettings,
  type LlmOptions,
  type LlmSettings,
  type LlmSettingsContext,
} from './fixer-options.js';
export {
  llmFixer,
  type LlmFixerSpec,
  type LlmTransport,
  type ProposalFate,
  type TransportCall,
  type TransportReply,
} from './llm-fixer.js';
export {
  CassetteMissError,
  CassetteModeSchema,
  CassetteOptionSchema,
  cassetteKey,
  resolveCassette,
  withCassette,
  type Cassette,
  type CassetteMode,
  type CassetteOption,
  type Taped,
  type TapeSpec,
} from './cassette.js';
export { fence, verdictWords } from './prompt-sections.js';
export { FOLLOW_UP_TEMPLATE, conversationKey, planPrompt, type PromptPlan } from './conversation.js';
export { createUsageMeter, type MeteredCall, type UsageMeter } from './usage-meter.js';
export {
  afterRetries,
  callFailureReason,
  failureOfStatus,
  formatDuration,
  type CallFailure,
  type CallFailureHint,
  type CallFailureKind,
  type CallSite,
} from './call-failure.js';
export { connectionCause, sdkCallFailure, type SdkErrorClasses } from './sdk-errors.js';
export { bufferedFetch } from './buffered-fetch.js';
export { CallTimeoutError, callDeadline, isCallTimeout, type CallDeadline } from './call-deadline.js';
export { clip, missingAnswerReason, type MissingAnswer } from './missing-answer.js';
export { REDACTED, createRedactor, redactDeep, type Redactor } from '../safety/redact.js';
export { HOME_PRIVATE_PATHS, PRIVATE_PATHS } from '../safety/repo-secrets.js';
