import { fileURLToPath } from 'node:url';
import { registerRunnerConformance } from '@suture/core/testing';
import { afterAll, beforeAll, describe, it } from 'vitest';
import vitest from '../../src/index.js';
import { TMP } from './support.js';

const fixture = (name: string): string => fileURLToPath(new URL(`./${name}`, import.meta.url));

registerRunnerConformance({ describe, it, beforeAll, afterAll }, vitest(), {
  path: fixture('basic'),
  tempParent: TMP,
  failing: [
    '__tests__/cart.test.ts::cart > total applies the discount from 100',
    '__tests__/cart.test.ts::cart > adds 2 + 2 = 5',
  ],
  passing: ['__tests__/cart.test.ts::cart > subtotal adds lines'],
  hang: { path: fixture('kit-hang'), test: '__tests__/forever.test.ts::waits forever', timeoutMs: 10_000 },
  buildError: { path: fixture('syntax'), file: '__tests__/broken.test.ts', line: 2 },
  // run on a copy outside the repository, where no node_modules holds Vitest
  missingToolchain: vitest(),
  // Vitest's own cache of test durations and failures, which a plain run writes too
  writes: ['node_modules/.vite/**'],
});
