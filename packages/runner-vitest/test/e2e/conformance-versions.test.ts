import { fileURLToPath } from 'node:url';
import { registerRunnerConformance } from '@suture/core/testing';
import { afterAll, beforeAll, describe, it } from 'vitest';
import vitest from '../../src/index.js';
import { pathFor, TMP, VITEST_DIRS } from './support.js';

const fixture = (name: string): string => fileURLToPath(new URL(`./${name}`, import.meta.url));

// conformance.test.ts runs the kit on the workspace's own Vitest (4); these run it on the other
// majors' real packages, Vitest 5 on a Node it supports
for (const major of ['3', '5'] as const) {
  const path = pathFor(major);
  (path === undefined ? describe.skip : describe)(`Vitest ${major}`, () => {
    registerRunnerConformance(
      { describe, it, beforeAll, afterAll },
      vitest({ vitestDir: VITEST_DIRS[major], env: { PATH: path ?? '' } }),
      {
        path: fixture('basic'),
        tempParent: TMP,
        failing: [
          '__tests__/cart.test.ts::cart > total applies the discount from 100',
          '__tests__/cart.test.ts::cart > adds 2 + 2 = 5',
        ],
        passing: ['__tests__/cart.test.ts::cart > subtotal adds lines'],
        hang: {
          path: fixture('kit-hang'),
          test: '__tests__/forever.test.ts::waits forever',
          timeoutMs: 10_000,
        },
        buildError: { path: fixture('syntax'), file: '__tests__/broken.test.ts', line: 2 },
        // run on a copy outside the repository, where no node_modules holds Vitest
        missingToolchain: vitest(),
        writes: ['node_modules/.vite/**'],
      },
    );
  });
}
