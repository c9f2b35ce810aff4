import { fileURLToPath } from 'node:url';
import { registerRunnerConformance } from '@suture/core/testing';
import { afterAll, beforeAll, describe, it } from 'vitest';
import jest from '../../src/index.js';
import { TMP } from './support.js';

registerRunnerConformance({ describe, it, beforeAll, afterAll }, jest(), {
  path: fileURLToPath(new URL('./basic', import.meta.url)),
  tempParent: TMP,
  failing: [
    '__tests__/cart.test.js::cart total applies the discount from 100',
    '__tests__/cart.test.js::cart adds 2 + 2 = 5',
  ],
  passing: ['__tests__/cart.test.js::cart subtotal adds lines'],
});
