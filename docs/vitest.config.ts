import { defineConfig } from 'vitest/config';

// The worked examples under examples/ are packages with tests of their own.
export default defineConfig({ test: { include: ['test/**/*.test.ts'] } });
