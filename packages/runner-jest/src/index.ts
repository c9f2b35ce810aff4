import { API_VERSION, type Runner } from '@suture/core';
import { javascriptAnalyzer } from './analyzer/index.js';
import { detectJest } from './detect.js';
import { doctorJest } from './doctor.js';
import { JestOptionsSchema, type JestOptions } from './options.js';
import { runJest, type DurationMemory } from './run.js';

export type { JestOptions } from './options.js';
export { javascriptAnalyzer } from './analyzer/index.js';

/** The Jest runner: `jest({ config: 'jest.config.js' })`. Runs the project's own Jest. */
export default function jest(options: JestOptions = {}): Runner {
  const resolved = JestOptionsSchema.parse(options);
  // what each test took when this runner last ran it: a re-run's limits come from it
  const durations: DurationMemory = new Map();
  return {
    name: '@suture/runner-jest',
    apiVersion: API_VERSION,
    language: 'javascript',
    supportsSelection: true,
    // a selected test file (`__tests__/cart.test.js`) runs every test in it
    supportsFileSelection: true,
    run: (ctx) => runJest(resolved, ctx, durations),
    detect: detectJest,
    analyzer: javascriptAnalyzer,
    doctor: (root) => doctorJest(root, resolved.jestBin),
  };
}
