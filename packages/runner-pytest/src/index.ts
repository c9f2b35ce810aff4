import { API_VERSION, type Runner } from '@suture/core';
import { pythonAnalyzer } from './analyzer/index.js';
import { detectPytest } from './detect.js';
import { doctorPytest } from './doctor.js';
import { DurationMemory } from './limits.js';
import { PytestOptionsSchema, type PytestOptions } from './options.js';
import { runPytest } from './run.js';
import { pytestSelectionRules } from './selection-rules.js';

export type { PytestOptions } from './options.js';
export { pythonAnalyzer, type PythonAnalyzerOptions } from './analyzer/index.js';

/** The pytest runner: `pytest({ python: '.venv/bin/python', args: ['-m', 'not slow'] })`. */
export default function pytest(options: PytestOptions = {}): Runner {
  const resolved = PytestOptionsSchema.parse(options);
  // Re-runs of selected tests take their limits from the durations this instance measured.
  const memory = new DurationMemory();
  return {
    name: '@suture/runner-pytest',
    apiVersion: API_VERSION,
    language: 'python',
    supportsSelection: true,
    // a selected test file is a node id pytest runs whole
    supportsFileSelection: true,
    // coverage.py records per test which lines ran, for `suture run --changed`
    supportsRecording: true,
    run: (ctx) => runPytest(resolved, ctx, memory),
    selectionRules: (root) => pytestSelectionRules(resolved, root),
    detect: detectPytest,
    // the analyzer traces tests with the runner's own interpreter and environment
    analyzer: () =>
      pythonAnalyzer({ ...(resolved.python ? { python: resolved.python } : {}), env: resolved.env }),
    doctor: (root) => doctorPytest(resolved, root),
  };
}
