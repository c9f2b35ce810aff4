import { fileURLToPath } from 'node:url';
import { registerRunnerConformance } from '@suture/core/testing';
import { afterAll, beforeAll, describe, it } from 'vitest';
import pytest from '../../src/index.js';

const fixture = (name: string): string => fileURLToPath(new URL(`./${name}`, import.meta.url));

registerRunnerConformance({ describe, it, beforeAll, afterAll }, pytest(), {
  path: fixture('basic'),
  failing: ['tests/test_cart.py::test_total_with_discount', 'tests/test_cart.py::test_tax[5-2]'],
  passing: ['tests/test_cart.py::test_subtotal', 'tests/test_cart.py::TestCart::test_empty'],
  hang: { path: fixture('hang'), test: 'tests/test_hang.py::test_loops_forever' },
  buildError: { path: fixture('collect'), file: 'pkg/core.py', line: 1 },
  missingToolchain: pytest({ python: '/nonexistent/python3' }),
  // a decorated function's code starts at its decorator, and pytest says so
  definitions: Object.fromEntries(
    ['10-2', '5-2', 'x[y]-0'].map((p) => [`tests/test_cart.py::test_tax[${p}]`, '@pytest.mark.parametrize']),
  ),
});
