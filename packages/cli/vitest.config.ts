import { defineConfig } from 'vitest/config';
import { slowFirst } from '../../scripts/vitest-slow-first.mjs';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // The files are end-to-end runs that mostly wait on the tools they start (pytest, CMake, npm,
    // git), so two run at once on a 2-core machine, where Vitest's default would be one.
    maxWorkers: 2,
    sequence: {
      sequencer: slowFirst([
        'test/e2e/install/install.test.ts',
        'test/e2e/generate/cpp.test.ts',
        'test/e2e/shard-files.test.ts',
        'test/e2e/safety/crash-trials.test.ts',
        'test/e2e/shard-merge.test.ts',
        'test/e2e/safety/workspace.test.ts',
      ]),
    },
  },
});
