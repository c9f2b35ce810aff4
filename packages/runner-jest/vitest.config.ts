import { defineConfig } from 'vitest/config';
import { slowFirst } from '../../scripts/vitest-slow-first.mjs';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // fixture projects carry their own Jest tests
    exclude: ['test/e2e/*/**', '**/node_modules/**'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // most of this suite waits on hanging fixture tests and Jest's start-up, not on the CPU
    maxWorkers: 2,
    sequence: { sequencer: slowFirst(['test/e2e/timeouts.test.ts', 'test/e2e/sibling-limits.test.ts']) },
  },
});
