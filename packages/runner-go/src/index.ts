import { API_VERSION, type Runner } from '@suture/core';
import { goAnalyzer } from './analyzer/index.js';
import { detectGo } from './detect.js';
import { doctorGo } from './doctor.js';
import { userGoEnv } from './go-env.js';
import { DurationMemory } from './limits.js';
import { GoOptionsSchema, type GoOptions } from './options.js';
import { runGo } from './run.js';

export type { GoOptions } from './options.js';
export { goAnalyzer } from './analyzer/index.js';

/** The `go test` runner: `go({ packages: ['./...'], args: ['-race'] })`. */
export default function go(options: GoOptions = {}): Runner {
  const resolved = GoOptionsSchema.parse(options);
  // re-runs of selected tests take their limits from the durations this instance measured
  const memory = new DurationMemory();
  return {
    name: '@suture/runner-go',
    apiVersion: API_VERSION,
    language: 'go',
    supportsSelection: true,
    run: (ctx) => runGo(resolved, ctx, memory),
    detect: detectGo,
    analyzer: () => goAnalyzer(),
    doctor: (root) => doctorGo(resolved, root),
    // the caches `go test` is given in its environment, so that the sandbox does not hide them
    sandboxPaths: async () => {
      if (!resolved.shareBuildCache) return [];
      const env = await userGoEnv(resolved.go);
      return [env?.GOCACHE, env?.GOMODCACHE].filter((p): p is string => !!p && p !== 'off');
    },
  };
}
