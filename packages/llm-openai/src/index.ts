export { default } from './fixer.js';
export type { OpenAIFixerContext } from './fixer.js';
export { OpenAIOptionsSchema, DEFAULT_MODEL, type OpenAIOptions } from './options.js';
export { OPENAI_PRICES } from './prices.js';
