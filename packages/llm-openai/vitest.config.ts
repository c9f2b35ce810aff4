import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    globalSetup: ['test/global-setup.ts'],
    // Workspace packages resolve outside node_modules, so vitest would inline its own copy of
    // @suture/core while the gate imports this fixer natively: two FixerError classes, and the
    // usage a failed call carries would be lost. Loading core natively keeps one copy, as in real use.
    server: { deps: { external: [/\/packages\/core\/dist\//] } },
  },
});
