import { fileURLToPath } from 'node:url';
import { registerRunnerConformance } from '@suture/core/testing';
import { afterAll, beforeAll, describe, it } from 'vitest';
import ctest from '../../src/index.js';

const fixture = (name: string): string => fileURLToPath(new URL(`./${name}`, import.meta.url));

registerRunnerConformance({ describe, it, beforeAll, afterAll }, ctest({ parallel: 2 }), {
  path: fixture('calc'),
  failing: ['Calc.Scales', 'Factors/Factor.KeepsZero/3'],
  passing: ['Calc.Adds'],
  // configuring comes first, and takes the same limit again
  hang: { path: fixture('hang'), test: 'waits_forever', timeoutMs: 10_000, abortAfterMs: 4000 },
  buildError: { path: fixture('broken'), file: 'tests/total_test.cpp', line: 3 },
  missingToolchain: ctest({ cmake: '/nonexistent/cmake' }),
  writes: ['build-suture/**'],
  timeoutMs: 300_000,
});
