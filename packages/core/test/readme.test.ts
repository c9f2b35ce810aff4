import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ConfigSchema, HealConfigSchema, ProjectConfigSchema } from '../src/api/contracts/config.js';
import { documentedOptions } from '../src/testing/readme-options.js';

const README = fileURLToPath(new URL('../README.md', import.meta.url));

describe('README.md', () => {
  it.each([
    ['Options', ConfigSchema],
    ['Project keys', ProjectConfigSchema],
    ['Heal keys', HealConfigSchema],
  ] as const)(
    'has a row under "%s" for every key of the schema, and none for a key that is gone',
    (heading, schema) => {
      expect(documentedOptions(README, heading).sort()).toEqual(Object.keys(schema.shape).sort());
    },
  );
});
