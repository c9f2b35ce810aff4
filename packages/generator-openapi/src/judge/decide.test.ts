import { beforeAll, describe, expect, it } from 'vitest';
import { buildContract, type Contract } from '../emit/contract.js';
import { buildPlan } from '../plan/plan.js';
import { loadSpec } from '../spec/load.js';
import { buildModel } from '../spec/model.js';
import { judge } from './decide.js';
import type { Exchange } from './exchanges.js';

let contract: Contract;
const caseOf = (kind: string, operation: string): string =>
  Object.entries(contract.cases).find(([, c]) => c.kind === kind && c.operation === operation)![0];

function exchange(
  method: string,
  path: string,
  status: number,
  body: unknown,
  request: Partial<Exchange> = {},
): Exchange {
  return {
    phase: 'call',
    method,
    path,
    pathArgs: {},
    query: {},
    url: `http://svc${path}`,
    request: { headers: { Authorization: '***' }, body: null, raw: false },
    response: { status, headers: { 'Content-Type': 'application/json' }, body },
    elapsedMs: 5,
    ...request,
  };
}

beforeAll(async () => {
  const example = new URL('../../../../examples/api-service/', import.meta.url).pathname;
  const model = buildModel(await loadSpec('openapi.yaml', example));
  const plan = buildPlan(model, 1);
  contract = buildContract(model, plan.cases, {
    baseUrl: 'http://svc',
    authEnv: 'API_TOKEN',
    responseTimeLimitS: 10,
  });
});

describe('judge: product bug or script error, from the exchanges and the contract alone', () => {
  it('calls a 5xx a critical product bug, naming the broken input when the request broke the document', () => {
    const j = judge({
      contract,
      caseId: caseOf('bad-format', 'createOrder'),
      exchanges: [
        exchange('POST', '/orders', 500, 'boom', {
          request: {
            headers: {},
            body: { userId: 1, productId: 2, quantity: 1, deliveryDate: 'x' },
            raw: false,
          },
        }),
      ],
      evidence: '',
    });
    expect(j).toMatchObject({
      verdict: 'bug',
      severity: 'critical',
      summary: 'POST /orders answers 500 (a server error)',
    });
    expect(j.verdict === 'bug' && j.rootCause).toContain('deliveryDate');
  });

  it('calls a 2xx body that breaks its schema a product bug, and an accepted invalid request one too', () => {
    const schema = judge({
      contract,
      caseId: caseOf('positive', 'getProduct'),
      exchanges: [
        exchange(
          'GET',
          '/products/{productId}',
          200,
          { id: 1, sku: 'ABC-0001', name: 'n', price: 1, stock: -1 },
          { pathArgs: { productId: 1 } },
        ),
      ],
      evidence: '',
    });
    expect(schema).toMatchObject({ verdict: 'bug', severity: 'high' });
    expect(schema.verdict === 'bug' && schema.actual).toContain('/stock: must be >= 0');
    const accepted = judge({
      contract,
      caseId: caseOf('missing-required', 'createUser'),
      exchanges: [
        exchange(
          'POST',
          '/users',
          201,
          { id: 3, name: 'a', email: 'a@b.c' },
          { request: { headers: {}, body: { email: 'a@b.c' }, raw: false } },
        ),
      ],
      evidence: '',
    });
    expect(accepted).toMatchObject({ verdict: 'bug', severity: 'medium' });
    expect(accepted.verdict === 'bug' && accepted.expected).toContain('"name" is missing');
  });

  it('calls a request of the test that breaks the document a script error, and repairs what it can name', () => {
    const source =
      'def test_tc099_x(api):\n    resp = api.call("POST", "/users", json={"nam": "Ada", "email": "a@b.c"})\n    assert_status(resp, 201)';
    const j = judge({
      contract,
      caseId: caseOf('positive', 'createUser'),
      exchanges: [
        exchange(
          'POST',
          '/users',
          400,
          { code: 400, message: 'name' },
          { request: { headers: {}, body: { nam: 'Ada', email: 'a@b.c' }, raw: false } },
        ),
      ],
      evidence: 'AssertionError: POST /users answered 400, expected 201',
      source,
    });
    expect(j).toMatchObject({
      verdict: 'script',
      fix: { search: source, replace: source.replace('"nam":', '"name":') },
    });
    const url = judge({
      contract,
      caseId: caseOf('positive', 'listUsers'),
      exchanges: [exchange('GET', '/user', 404, { code: 404, message: 'not found' })],
      evidence: '',
      source: 'def test_tc098_y(api):\n    resp = api.call("GET", "/user")',
    });
    expect(url).toMatchObject({
      verdict: 'script',
      fix: { replace: 'def test_tc098_y(api):\n    resp = api.call("GET", "/users")' },
    });
  });

  it('leaves to the next fixer what the document does not decide: a declared 409, a negative case answered 4xx', () => {
    const conflict = judge({
      contract,
      caseId: caseOf('positive', 'createOrder'),
      exchanges: [
        exchange(
          'POST',
          '/orders',
          409,
          { code: 409, message: 'stock' },
          { request: { headers: {}, body: { userId: 1, productId: 2, quantity: 2 }, raw: false } },
        ),
      ],
      evidence: 'AssertionError: POST /orders answered 409, expected 201',
    });
    expect(conflict.verdict).toBe('unknown');
    expect(judge({ contract, exchanges: [], evidence: '' })).toEqual({
      verdict: 'unknown',
      reason: 'the test sent no request before it failed',
    });
  });
});
