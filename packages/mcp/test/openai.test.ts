import { describe, expect, it } from 'vitest';
import { mcpToolList, openAiTools, strictJsonSchema } from '../src/openai.js';
import { SUTURE_TOOLS } from '../src/tools.js';

type Json = Record<string, unknown>;

/** Keywords OpenAI's strict mode accepts (its Structured Outputs subset of JSON Schema). */
const STRICT_KEYWORDS = new Set([
  'type',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'anyOf',
  'enum',
  'const',
  'description',
  'pattern',
  'format',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minItems',
  'maxItems',
  '$defs',
  '$ref',
]);

/** Every rule of strict mode this schema breaks, with where. */
function strictViolations(schema: Json, at = '(root)'): string[] {
  const out: string[] = [];
  for (const key of Object.keys(schema)) if (!STRICT_KEYWORDS.has(key)) out.push(`${at}: keyword ${key}`);
  if (schema.properties) {
    const props = Object.keys(schema.properties as Json);
    if (schema.additionalProperties !== false) out.push(`${at}: additionalProperties is not false`);
    const required = (schema.required as string[] | undefined) ?? [];
    if (props.some((p) => !required.includes(p))) out.push(`${at}: not every property is required`);
    for (const [name, prop] of Object.entries(schema.properties as Record<string, Json>))
      out.push(...strictViolations(prop, `${at}.${name}`));
  }
  if (schema.items) out.push(...strictViolations(schema.items as Json, `${at}[]`));
  for (const [i, s] of ((schema.anyOf as Json[] | undefined) ?? []).entries())
    out.push(...strictViolations(s, `${at}|${i}`));
  return out;
}

describe('OpenAI function definitions', () => {
  it('lists every tool as a strict function whose schema keeps to strict mode', () => {
    const tools = openAiTools();
    expect(tools.map((t) => t.function.name)).toEqual(SUTURE_TOOLS.map((t) => t.name));
    for (const tool of tools) {
      expect(tool.type).toBe('function');
      expect(tool.function.strict).toBe(true);
      expect(tool.function.parameters.type).toBe('object');
      expect(strictViolations(tool.function.parameters)).toEqual([]);
    }
  });

  it('makes optional properties nullable and required, and keeps the required ones as they are', () => {
    const heal = openAiTools().find((t) => t.function.name === 'suture_heal')!.function.parameters;
    const props = heal.properties as Record<string, Json>;
    expect(props.change_description!.type).toBe('string');
    expect(props.session_id!.type).toEqual(['string', 'null']);
    expect(props.tests!.type).toEqual(['array', 'null']);
    expect(props.strategy!.enum).toEqual(['ladder', 'each-fixer', null]);
  });

  it('closes nested objects and unions too', () => {
    const schema = strictJsonSchema({
      type: 'object',
      properties: {
        a: {
          anyOf: [
            { type: 'object', properties: { b: { type: 'string', minLength: 1 } } },
            { type: 'number' },
          ],
        },
      },
      required: [],
    });
    expect(strictViolations(schema)).toEqual([]);
    expect(schema).toEqual({
      type: 'object',
      properties: {
        a: {
          anyOf: [
            {
              type: 'object',
              properties: { b: { type: ['string', 'null'] } },
              additionalProperties: false,
              required: ['b'],
            },
            { type: 'number' },
            { type: 'null' },
          ],
        },
      },
      additionalProperties: false,
      required: ['a'],
    });
  });

  it('lists the MCP tools with input and output schemas', () => {
    for (const tool of mcpToolList()) {
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema.type).toBe('object');
    }
  });
});
