import { fileURLToPath } from 'node:url';
import { registerRunnerConformance } from '@suture/core/testing';
import { afterAll, beforeAll, describe, it } from 'vitest';
import jest from '../../src/index.js';
import { TMP } from './support.js';

const fixture = (name: string): string => fileURLToPath(new URL(`./${name}`, import.meta.url));

registerRunnerConformance({ describe, it, beforeAll, afterAll }, jest(), {
  path: fixture('basic'),
  tempParent: TMP,
  failing: [
    '__tests__/cart.test.js::cart total applies the discount from 100',
    '__tests__/cart.test.js::cart adds 2 + 2 = 5',
  ],
  passing: ['__tests__/cart.test.js::cart subtotal adds lines'],
  hang: { path: fixture('kit-hang'), test: '__tests__/forever.test.js::waits forever', timeoutMs: 10_000 },
  buildError: { path: fixture('syntax'), file: '__tests__/broken.test.js', line: 1 },
  // run on a copy outside the repository, where no node_modules holds Jest
  missingToolchain: jest(),
});
