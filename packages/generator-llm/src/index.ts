/**
 * `@suture/generator-llm`: unit tests (pytest, GoogleTest, Jest) written by an LLM fixer of the
 * config, for `suture generate tests --generator claude|openai|llm`.
 */
export { default } from './generator.js';
export {
  FixerSpecSchema,
  LlmGeneratorOptionsSchema,
  type FixerSpec,
  type LlmGeneratorOptions,
} from './options.js';
export { testIds } from './test-names.js';
