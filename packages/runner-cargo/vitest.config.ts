import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // fixture crates carry their own Rust tests
    exclude: ['test/e2e/*/**', '**/node_modules/**'],
    testTimeout: 120_000,
    hookTimeout: 180_000,
    pool: 'forks',
  },
});
