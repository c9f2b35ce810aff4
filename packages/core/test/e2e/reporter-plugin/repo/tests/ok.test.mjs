import assert from 'node:assert/strict';

assert.equal(1 + 1, 2);
