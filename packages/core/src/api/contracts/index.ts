export * from './run-result.js';
export * from './failure.js';
export * from './fix.js';
export * from './report.js';
export * from './config.js';
