import { fileURLToPath } from 'node:url';
import { registerRunnerConformance } from '@suture/core/testing';
import { afterAll, beforeAll, describe, it } from 'vitest';
import checks from '../src/index.js';

const fixture = (name: string): string => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));

registerRunnerConformance({ describe, it, beforeAll, afterAll }, checks(), {
  path: fixture('calc'),
  failing: ['checks/calc.checks::subtracts'],
  passing: ['checks/calc.checks::adds', 'checks/calc.checks::multiplies'],
  hang: { path: fixture('hang'), test: 'checks/wait.checks::waits forever', timeoutMs: 2000 },
  buildError: { path: fixture('broken'), file: 'checks/bad.checks', line: 3 },
  missingToolchain: checks({ shell: '/nonexistent/sh' }),
});
