export * from './answer.js';
export * from './prompt.js';
export * from './pricing.js';
export * from './options.js';
