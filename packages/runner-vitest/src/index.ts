import { API_VERSION, type Runner } from '@suture/core';
import { javascriptAnalyzer } from '@suture/runner-jest/analyzer';
import { detectVitest } from './detect.js';
import { doctorVitest } from './doctor.js';
import { VitestOptionsSchema, type VitestOptions } from './options.js';
import { runVitest, type DurationMemory } from './run.js';

export type { VitestOptions } from './options.js';

/** The Vitest runner: `vitest({ config: 'vitest.config.ts' })`. Runs the project's own Vitest. */
export default function vitest(options: VitestOptions = {}): Runner {
  const resolved = VitestOptionsSchema.parse(options);
  // what each test took when this runner last ran it: a re-run's limits come from it
  const durations: DurationMemory = new Map();
  return {
    name: '@suture/runner-vitest',
    apiVersion: API_VERSION,
    language: 'javascript',
    supportsSelection: true,
    // a selected test file runs every test in it
    supportsFileSelection: true,
    run: (ctx) => runVitest(resolved, ctx, durations),
    detect: detectVitest,
    // the JavaScript/TypeScript analyzer of @suture/runner-jest, shared: Vitest's ids, messages and stacks read as Jest's do
    analyzer: javascriptAnalyzer,
    doctor: (root) => doctorVitest(root, resolved.vitestDir, { ...process.env, ...resolved.env }),
  };
}
