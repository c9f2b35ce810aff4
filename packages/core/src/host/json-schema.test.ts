import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { configJsonSchemaText } from './json-schema.js';

describe('config.schema.json', () => {
  it('matches the zod schema (regenerate with `node scripts/gen-schema.mjs` after a build)', () => {
    const committed = readFileSync(new URL('../../config.schema.json', import.meta.url), 'utf8');
    expect(committed).toBe(configJsonSchemaText());
  });
  it('describes the keys users write', () => {
    const schema = JSON.parse(configJsonSchemaText());
    expect(Object.keys(schema.properties)).toEqual(
      expect.arrayContaining(['projects', 'fixers', 'heal', 'reporters']),
    );
    expect(schema.required).toEqual(['projects']);
    expect(schema.additionalProperties).toBe(false);
  });
});
