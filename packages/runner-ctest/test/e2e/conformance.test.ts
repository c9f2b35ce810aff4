import { fileURLToPath } from 'node:url';
import { registerRunnerConformance } from '@suture/core/testing';
import { afterAll, beforeAll, describe, it } from 'vitest';
import ctest from '../../src/index.js';

registerRunnerConformance({ describe, it, beforeAll, afterAll }, ctest({ parallel: 2 }), {
  path: fileURLToPath(new URL('./calc', import.meta.url)),
  failing: ['Calc.Scales', 'Factors/Factor.KeepsZero/3'],
  passing: ['Calc.Adds'],
  writes: ['build-suture/**'],
  timeoutMs: 300_000,
});
