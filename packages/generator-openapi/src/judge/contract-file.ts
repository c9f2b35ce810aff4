import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from '@suture/core';
import type { Contract } from '../emit/contract.js';

const Schema = z.record(z.string(), z.unknown());

const ContractSchema = z.object({
  title: z.string(),
  baseUrl: z.string(),
  auth: z
    .object({
      kind: z.enum(['bearer', 'basic', 'apiKey']),
      name: z.string().optional(),
      in: z.enum(['header', 'query', 'cookie']).optional(),
      env: z.string(),
    })
    .optional(),
  responseTimeLimitS: z.number(),
  operations: z.record(
    z.string(),
    z.object({
      method: z.string(),
      path: z.string(),
      secured: z.boolean(),
      params: z.array(z.object({ name: z.string(), in: z.string(), required: z.boolean(), schema: Schema })),
      body: z.object({ contentType: z.string(), required: z.boolean(), schema: Schema }).optional(),
      responses: z.record(
        z.string(),
        z.object({ contentType: z.string().optional(), schema: Schema.optional() }),
      ),
    }),
  ),
  cases: z.record(
    z.string(),
    z.object({
      kind: z.enum([
        'positive',
        'missing-required',
        'wrong-type',
        'bad-format',
        'out-of-range',
        'no-auth',
        'malformed-body',
        'chain',
        'state',
        'data',
        'business',
      ]),
      operation: z.string(),
      api: z.string(),
      scenario: z.string(),
      expect: z.string(),
      file: z.string(),
      test: z.string(),
      field: z.string().optional(),
      breaks: z.string().optional(),
      source: z.string().optional(),
    }),
  ),
});

export const CONTRACT_FILE = 'api_contract.json';

/** The suite's api_contract.json, or undefined when the project is not a generated API suite. */
export async function readContract(root: string): Promise<Contract | undefined> {
  let text: string;
  try {
    text = await readFile(join(root, CONTRACT_FILE), 'utf8');
  } catch {
    return undefined;
  }
  const parsed = ContractSchema.safeParse(JSON.parse(text));
  return parsed.success ? (parsed.data as Contract) : undefined;
}

/** The case a test is: `test_orders.py::test_tc040_...` -> `TC-040`. */
export function caseIdOf(nodeid: string): string | undefined {
  const m = /::test_tc(\d+)_/.exec(nodeid);
  return m ? `TC-${m[1]}` : undefined;
}
