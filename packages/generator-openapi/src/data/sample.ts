import { createHash } from 'node:crypto';
import { generateSync, type JsonSchema as FakerSchema } from 'json-schema-faker';
import { objectShape, primaryType, type JsonSchema } from '../spec/json-schema.js';

/** A seed of its own for each place in the document, so one new operation does not change the data of the others. */
export function seedFor(seed: number, where: string): number {
  return createHash('sha256').update(`${seed}:${where}`).digest().readUInt32BE(0);
}

function declared(schema: JsonSchema): { value: unknown } | undefined {
  if (schema.example !== undefined) return { value: schema.example };
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return { value: schema.examples[0] };
  if (schema.const !== undefined) return { value: schema.const };
  if (schema.default !== undefined) return { value: schema.default };
  if (Array.isArray(schema.enum) && schema.enum.length > 0)
    return { value: schema.enum.find((v) => v !== null) ?? schema.enum[0] };
  return undefined;
}

/**
 * A schema-valid value: the document's own example (or examples, const, default, first enum
 * value) first; an object is built property by property, so each property gets its own example,
 * and takes its optional properties only when the document shows an example of them; anything
 * else comes from json-schema-faker, seeded by `seed` and the place, so the same seed writes the
 * same tests.
 */
export function sample(schema: JsonSchema, seed: number, where: string): unknown {
  const own = declared(schema);
  if (own) return own.value;
  if (primaryType(schema) === 'object' && (schema.properties || schema.allOf)) {
    const { properties, required } = objectShape(schema);
    const out: Record<string, unknown> = {};
    for (const [name, prop] of Object.entries(properties)) {
      if (prop.readOnly === true) continue;
      if (!required.includes(name) && !declared(prop)) continue;
      out[name] = sample(prop, seed, `${where}/${name}`);
    }
    return out;
  }
  if (primaryType(schema) === 'array' && schema.items && typeof schema.items === 'object') {
    const count = Math.max(1, Number(schema.minItems ?? 1));
    return Array.from({ length: count }, (_, i) => sample(schema.items as JsonSchema, seed, `${where}/${i}`));
  }
  return generateSync(schema as FakerSchema, { seed: seedFor(seed, where), alwaysFakeOptionals: false });
}
