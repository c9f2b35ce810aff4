import { fileURLToPath } from 'node:url';
import { registerRunnerConformance } from '@suture/core/testing';
import { afterAll, beforeAll, describe, it } from 'vitest';
import cargo from '../../src/index.js';
import '../toolchain.js';

const fixture = (name: string): string => fileURLToPath(new URL(`./${name}`, import.meta.url));

registerRunnerConformance({ describe, it, beforeAll, afterAll }, cargo(), {
  path: fixture('calc'),
  failing: [
    'src/lib.rs::tests::subtracts',
    'src/lib.rs::shapes::tests::square_area',
    'tests/api.rs::api_subtracts',
    'src/lib.rs - sub (line 16)',
  ],
  passing: ['src/lib.rs::tests::adds', 'tests/api.rs::api_adds', 'src/lib.rs - add (line 7)'],
  hang: {
    path: fixture('hang'),
    test: 'src/lib.rs::tests::waits_forever',
    timeoutMs: 20_000,
    abortAfterMs: 8000,
  },
  buildError: { path: fixture('broken'), file: 'src/lib.rs', line: 3 },
  missingToolchain: cargo({ cargo: '/nonexistent/cargo' }),
  // a doctest is defined where its code block opens
  definitions: { 'src/lib.rs - sub (line 16)': '```', 'src/lib.rs - add (line 7)': '```' },
  writes: ['target/**'],
  timeoutMs: 240_000,
});
