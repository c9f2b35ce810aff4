import type { PlannedCase } from '../plan/cases.js';
import type { JsonSchema } from '../spec/json-schema.js';
import type { ApiModel, AuthSpec } from '../spec/model.js';

export interface ContractOperation {
  method: string;
  path: string;
  secured: boolean;
  params: Array<{ name: string; in: string; required: boolean; schema: JsonSchema }>;
  body?: { contentType: string; required: boolean; schema: JsonSchema };
  responses: Record<string, { contentType?: string; schema?: JsonSchema }>;
}

export interface ContractCase {
  kind: PlannedCase['kind'];
  operation: string;
  api: string;
  scenario: string;
  expect: string;
  file: string;
  test: string;
  field?: string;
  breaks?: string;
  /** Where the expectation came from, when not the document: a rule or a data row. */
  source?: string;
}

/**
 * api_contract.json: what the generated tests check answers against, and what the judge reads to
 * tell a product bug from a script error. Written next to the tests, so both work without the
 * OpenAPI document.
 */
export interface Contract {
  title: string;
  baseUrl: string;
  auth?: AuthSpec & { env: string };
  responseTimeLimitS: number;
  operations: Record<string, ContractOperation>;
  cases: Record<string, ContractCase>;
}

export function buildContract(
  model: ApiModel,
  cases: readonly PlannedCase[],
  options: { baseUrl: string; authEnv: string; responseTimeLimitS: number },
): Contract {
  const operations: Record<string, ContractOperation> = {};
  for (const op of model.operations)
    operations[op.id] = {
      method: op.method,
      path: op.path,
      secured: op.secured,
      params: op.params.map((p) => ({ name: p.name, in: p.in, required: p.required, schema: p.schema })),
      ...(op.body
        ? { body: { contentType: op.body.contentType, required: op.body.required, schema: op.body.schema } }
        : {}),
      responses: Object.fromEntries(
        op.responses.map((r) => [
          r.status,
          {
            ...(r.contentType ? { contentType: r.contentType } : {}),
            ...(r.schema ? { schema: r.schema } : {}),
          },
        ]),
      ),
    };
  return {
    title: model.title,
    baseUrl: options.baseUrl,
    ...(model.auth ? { auth: { ...model.auth, env: options.authEnv } } : {}),
    responseTimeLimitS: options.responseTimeLimitS,
    operations,
    cases: Object.fromEntries(
      cases.map((c) => [
        c.id,
        {
          kind: c.kind,
          operation: c.operation,
          api: c.api,
          scenario: c.scenario,
          expect: c.expect,
          file: c.file,
          test: c.test,
          ...(c.field ? { field: c.field } : {}),
          ...(c.breaks ? { breaks: c.breaks } : {}),
          ...(c.source ? { source: c.source } : {}),
        },
      ]),
    ),
  };
}
