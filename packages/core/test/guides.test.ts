import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { RunResultSchema, TestResultSchema } from '../src/api/contracts/run-result.js';
import { documentedOptions } from '../src/testing/readme-options.js';

// A plugin author writes from the guides alone: a field the schema has and the guide does not
// name is one they cannot fill, and a row for a field that is gone is one the engine drops.
const RUNNER_GUIDE = fileURLToPath(new URL('../../../docs/runner.md', import.meta.url));

describe('docs/runner.md', () => {
  it.each([
    ['RunResult', RunResultSchema],
    ['TestResult', TestResultSchema],
  ] as const)(
    'has a row under "%s" for every field of its schema, and none for a field that is gone',
    (heading, schema) => {
      expect(documentedOptions(RUNNER_GUIDE, heading).sort()).toEqual(Object.keys(schema.shape).sort());
    },
  );
});
