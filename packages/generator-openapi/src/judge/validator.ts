import { Ajv2020, type ErrorObject } from 'ajv/dist/2020.js';
import type { JsonSchema } from '../spec/json-schema.js';

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

function isDate(s: string): boolean {
  const m = DATE.exec(s);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return (
    d.getUTCFullYear() === Number(m[1]) &&
    d.getUTCMonth() === Number(m[2]) - 1 &&
    d.getUTCDate() === Number(m[3])
  );
}

/**
 * One validator for the judge, with the formats the generated tests check (Python's jsonschema
 * FormatChecker reads these the same way), so both sides call the same answers wrong.
 */
const ajv = new Ajv2020({ strict: false, allErrors: true, logger: false, validateFormats: true });
ajv.addFormat('date', { type: 'string', validate: isDate });
ajv.addFormat('email', { type: 'string', validate: (s: string) => s.includes('@') });
ajv.addFormat('uuid', /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i);
ajv.addFormat('ipv4', /^(?:(?:25[0-5]|2[0-4]\d|1?\d?\d)\.){3}(?:25[0-5]|2[0-4]\d|1?\d?\d)$/);
ajv.addFormat('date-time', {
  type: 'string',
  validate: (s: string) =>
    /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/.test(s) &&
    isDate(s.slice(0, 10)),
});

const compiled = new WeakMap<object, ReturnType<typeof ajv.compile>>();

/** `/stock: must be >= 0`, one line per problem, the deepest first; empty when the value fits. */
export function schemaProblems(schema: JsonSchema, value: unknown): string[] {
  let validate = compiled.get(schema);
  if (!validate) {
    try {
      validate = ajv.compile(schema);
    } catch {
      return [];
    }
    compiled.set(schema, validate);
  }
  if (validate(value)) return [];
  const errors = (validate.errors ?? []) as ErrorObject[];
  const shown = errors.filter((e) => !['anyOf', 'oneOf', 'allOf', 'if'].includes(e.keyword));
  return [
    ...new Set(
      (shown.length ? shown : errors).map((e) => {
        const params = e.params as { missingProperty?: string; additionalProperty?: string };
        const at = e.instancePath || '/';
        if (params.missingProperty) return `${at}: the required field "${params.missingProperty}" is missing`;
        if (params.additionalProperty) return `${at}: "${params.additionalProperty}" is not a declared field`;
        return `${at}: ${e.message ?? e.keyword}`;
      }),
    ),
  ];
}
