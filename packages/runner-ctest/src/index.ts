import { API_VERSION, type Runner } from '@suture/core';
import { cppAnalyzer } from './analyzer/index.js';
import { detectCtest } from './detect.js';
import { doctorCtest } from './doctor.js';
import type { DurationMemory } from './limits.js';
import { parseCtestOptions, type CtestOptions } from './options.js';
import { runCtest } from './run.js';

export type { CtestOptions } from './options.js';
export { cppAnalyzer } from './analyzer/index.js';
export { parseCompilerOutput, parseCmakeErrors } from './gcc-diagnostics.js';

/** The CMake + CTest runner: `ctest({ buildDir: 'build-suture' })`. */
export default function ctest(options: CtestOptions = {}): Runner {
  const resolved = parseCtestOptions(options);
  // Re-runs of selected tests take their limits from the durations this instance measured.
  const memory: DurationMemory = new Map();
  return {
    name: '@suture/runner-ctest',
    apiVersion: API_VERSION,
    language: 'cpp',
    supportsSelection: true,
    run: (ctx) => runCtest(resolved, ctx, memory),
    detect: detectCtest,
    analyzer: cppAnalyzer,
    doctor: () => doctorCtest(resolved),
  };
}
