import { fileURLToPath } from 'node:url';
import { registerRunnerConformance } from '@suture/core/testing';
import { afterAll, beforeAll, describe, it } from 'vitest';
import pytest from '../../src/index.js';

registerRunnerConformance({ describe, it, beforeAll, afterAll }, pytest(), {
  path: fileURLToPath(new URL('./basic', import.meta.url)),
  failing: ['tests/test_cart.py::test_total_with_discount', 'tests/test_cart.py::test_tax[5-2]'],
  passing: ['tests/test_cart.py::test_subtotal', 'tests/test_cart.py::TestCart::test_empty'],
});
