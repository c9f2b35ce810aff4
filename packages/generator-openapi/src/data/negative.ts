import { objectShape, primaryType, type JsonSchema } from '../spec/json-schema.js';

/** A value of another type than the schema's, that no lenient server reads as the right one. */
export function wrongType(schema: JsonSchema): unknown {
  switch (primaryType(schema)) {
    case 'string':
      return 12345;
    case 'integer':
    case 'number':
      return 'not-a-number';
    case 'boolean':
      return 'not-a-boolean';
    case 'array':
      return 'not-an-array';
    case 'object':
      return 'not-an-object';
    default:
      return undefined;
  }
}

const BAD_FORMATS: Record<string, string> = {
  date: 'not-a-date',
  'date-time': 'not-a-date-time',
  email: 'not-an-email',
  uuid: 'not-a-uuid',
  uri: 'not a uri',
  url: 'not a url',
  ipv4: '999.1.1.1.1',
  ipv6: 'not-an-ipv6',
  hostname: 'not a hostname!',
};

/** A string that breaks the schema's format, pattern or enum, with what it breaks; undefined when there is none. */
export function badFormat(schema: JsonSchema): { value: string; breaks: string } | undefined {
  if (primaryType(schema) !== 'string') return undefined;
  const format = typeof schema.format === 'string' ? schema.format : undefined;
  if (format && BAD_FORMATS[format]) return { value: BAD_FORMATS[format], breaks: `format ${format}` };
  if (typeof schema.pattern === 'string') {
    for (const candidate of ['!not matching!', '', 'x'.repeat(3), '0']) {
      try {
        if (!new RegExp(schema.pattern, 'u').test(candidate))
          return { value: candidate, breaks: `pattern ${schema.pattern}` };
      } catch {
        return undefined;
      }
    }
  }
  if (Array.isArray(schema.enum) && schema.enum.every((v) => typeof v === 'string'))
    return { value: 'not-one-of-the-enum', breaks: `enum ${JSON.stringify(schema.enum)}` };
  return undefined;
}

/** A value just outside the schema's bounds, with the bound it breaks; undefined when it has none. */
export function outOfRange(schema: JsonSchema): { value: unknown; breaks: string } | undefined {
  const t = primaryType(schema);
  if (t === 'integer' || t === 'number') {
    const step = t === 'integer' ? 1 : 0.5;
    if (typeof schema.minimum === 'number')
      return { value: schema.minimum - step, breaks: `minimum ${schema.minimum}` };
    if (typeof schema.exclusiveMinimum === 'number')
      return { value: schema.exclusiveMinimum, breaks: `exclusiveMinimum ${schema.exclusiveMinimum}` };
    if (typeof schema.maximum === 'number')
      return { value: schema.maximum + step, breaks: `maximum ${schema.maximum}` };
  }
  if (t === 'string') {
    if (typeof schema.maxLength === 'number' && schema.maxLength < 10_000)
      return { value: 'x'.repeat(schema.maxLength + 1), breaks: `maxLength ${schema.maxLength}` };
    if (typeof schema.minLength === 'number' && schema.minLength > 0)
      return { value: 'x'.repeat(schema.minLength - 1), breaks: `minLength ${schema.minLength}` };
  }
  return undefined;
}

/** The properties of a body schema, required first, with whether each is required. */
export function bodyFields(
  schema: JsonSchema,
): Array<{ name: string; schema: JsonSchema; required: boolean }> {
  const { properties, required } = objectShape(schema);
  return Object.entries(properties)
    .filter(([, s]) => s.readOnly !== true)
    .map(([name, s]) => ({ name, schema: s, required: required.includes(name) }))
    .sort((a, b) => Number(b.required) - Number(a.required));
}
