import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // The fixer is loaded by name from its dist/, which imports core natively: load core natively
    // here too, so both sides share one copy (one FixerError class, one set of schemas).
    server: { deps: { external: [/\/packages\/core\/dist\//] } },
  },
});
