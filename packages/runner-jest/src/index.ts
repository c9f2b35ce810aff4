import { API_VERSION, type Runner } from '@suture/core';
import { javascriptAnalyzer } from './analyzer/index.js';
import { detectJest } from './detect.js';
import { doctorJest } from './doctor.js';
import { JestOptionsSchema, type JestOptions } from './options.js';
import { runJest } from './run.js';

export type { JestOptions } from './options.js';
export { javascriptAnalyzer } from './analyzer/index.js';

/** The Jest runner: `jest({ config: 'jest.config.js' })`. Runs the project's own Jest. */
export default function jest(options: JestOptions = {}): Runner {
  const resolved = JestOptionsSchema.parse(options);
  return {
    name: '@suture/runner-jest',
    apiVersion: API_VERSION,
    language: 'javascript',
    supportsSelection: true,
    run: (ctx) => runJest(resolved, ctx),
    detect: detectJest,
    analyzer: javascriptAnalyzer,
    doctor: (root) => doctorJest(root, resolved.jestBin),
  };
}
