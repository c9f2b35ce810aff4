export { default } from './fixer.js';
export { ClaudeOptionsSchema, DEFAULT_API_MODEL, type ClaudeOptions } from './options.js';
export { CLAUDE_PRICES } from './prices.js';
