import assert from 'node:assert/strict';
import { mul } from '../src/math.mjs';

assert.equal(mul(2, 3), 6);
