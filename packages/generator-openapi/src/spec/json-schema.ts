export type JsonSchema = Record<string, unknown>;

// `example` stays: validators ignore it and the data generator reads it
const OPENAPI_ONLY = ['nullable', 'discriminator', 'xml', 'externalDocs', 'x-nullable'];

/**
 * An OpenAPI schema object as plain JSON Schema (2020-12), for the validators on both sides
 * (Ajv here, jsonschema in the generated tests): `nullable` becomes a `null` type, draft-04
 * boolean exclusive bounds become numbers, Swagger's `file` is anything, and a `$ref` left by a
 * circular schema is anything too, since the schema travels without its document.
 */
export function toJsonSchema(schema: unknown, seen = new Map<object, JsonSchema>()): JsonSchema {
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) return {};
  const cached = seen.get(schema);
  if (cached) return cached;
  const src = schema as JsonSchema;
  const out: JsonSchema = {};
  seen.set(schema, out);
  for (const [key, value] of Object.entries(src)) {
    if (OPENAPI_ONLY.includes(key) || key.startsWith('x-')) continue;
    if (key === '$ref') continue;
    if (key === 'properties' || key === 'patternProperties' || key === '$defs' || key === 'definitions') {
      out[key] = Object.fromEntries(
        Object.entries((value ?? {}) as Record<string, unknown>).map(([k, v]) => [k, toJsonSchema(v, seen)]),
      );
    } else if (
      ['items', 'additionalProperties', 'not', 'contains', 'propertyNames', 'if', 'then', 'else'].includes(
        key,
      )
    ) {
      out[key] =
        typeof value === 'boolean'
          ? value
          : Array.isArray(value)
            ? value.map((v) => toJsonSchema(v, seen))
            : toJsonSchema(value, seen);
    } else if (['allOf', 'anyOf', 'oneOf', 'prefixItems'].includes(key) && Array.isArray(value)) {
      out[key] = value.map((v) => toJsonSchema(v, seen));
    } else {
      out[key] = value;
    }
  }
  if (src.type === 'file') delete out.type;
  for (const [flag, bound] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const) {
    if (out[flag] === true && typeof out[bound] === 'number') {
      out[flag] = out[bound];
      delete out[bound];
    } else if (typeof out[flag] === 'boolean') delete out[flag];
  }
  if ((src.nullable === true || src['x-nullable'] === true) && out.type !== undefined) {
    const types = Array.isArray(out.type) ? out.type : [out.type];
    if (!types.includes('null')) out.type = [...types, 'null'];
    if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
  }
  return out;
}

/** The first type a schema declares (`['string', 'null']` -> `string`), or undefined. */
export function primaryType(schema: JsonSchema): string | undefined {
  const t = schema.type;
  if (typeof t === 'string') return t;
  if (Array.isArray(t)) return t.find((x) => x !== 'null') as string | undefined;
  if (schema.properties) return 'object';
  if (schema.items) return 'array';
  return undefined;
}

/** The properties of an object schema, `allOf` parts merged. */
export function objectShape(schema: JsonSchema): {
  properties: Record<string, JsonSchema>;
  required: string[];
} {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  const visit = (s: JsonSchema): void => {
    Object.assign(properties, (s.properties ?? {}) as Record<string, JsonSchema>);
    if (Array.isArray(s.required)) required.push(...(s.required as string[]));
    if (Array.isArray(s.allOf)) for (const part of s.allOf as JsonSchema[]) visit(part);
  };
  visit(schema);
  return { properties, required: [...new Set(required)] };
}
