import { fileURLToPath } from 'node:url';
import { documentedOptions } from '@suture/core/testing';
import { describe, expect, it } from 'vitest';
import { CargoOptionsSchema } from '../src/options.js';

const README = fileURLToPath(new URL('../README.md', import.meta.url));

describe('README.md', () => {
  it('has a row under "## Options" for every option of the schema, and none for an option that is gone', () => {
    expect(documentedOptions(README).sort()).toEqual(Object.keys(CargoOptionsSchema.shape).sort());
  });
});
