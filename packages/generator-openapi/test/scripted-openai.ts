import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local server speaking OpenAI's Chat Completions wire format, answering as a model would for
 * the business scenarios of the example service: it writes each rule's test (three of them with a
 * script mistake the judge repairs) and calls the over-stock order a product bug. Used to record
 * the example's cassette; the tests replay that cassette without it.
 */
export interface ScriptedOpenAI {
  baseURL: string;
  calls: string[];
  close(): Promise<void>;
}

const SCENARIOS: Record<string, string> = {
  R1: `    product = api.call("POST", "/products", json={"sku": "RUL-0001", "name": "Rule tea", "price": 2.0, "stock": 3})
    assert_status(product, 201)
    cleanup.add("DELETE", "/products/{productId}", {"productId": product.json()["id"]})
    user = api.call("POST", "/users", json={"name": "Rule One", "email": "r1@example.com"})
    assert_status(user, 201)
    cleanup.add("DELETE", "/users/{userId}", {"userId": user.json()["id"]})
    order = api.call("POST", "/orders", json={"userId": user.json()["id"], "productId": product.json()["id"], "quantity": 5})
    if order.status_code < 300:
        cleanup.add("DELETE", "/orders/{orderId}", {"orderId": order.json()["id"]})
    assert order.status_code == 409, f"an order of 5 over a stock of 3 answered {order.status_code}"
    after = api.call("GET", "/products/{productId}", path_args={"productId": product.json()["id"]})
    assert after.json()["stock"] == 3`,
  R2: `    product = api.call("POST", "/products", json={"sku": "RUL-0002", "name": "Rule tea", "price": 2.35, "stock": 10})
    assert_status(product, 201)
    cleanup.add("DELETE", "/products/{productId}", {"productId": product.json()["id"]})
    user = api.call("POST", "/users", json={"name": "Rule Two", "email": "r2@example.com"})
    assert_status(user, 201)
    cleanup.add("DELETE", "/users/{userId}", {"userId": user.json()["id"]})
    order = api.call("POST", "/orders", json={"userId": user.json()["id"], "productId": product.json()["id"], "quantity": 3})
    assert_status(order, 201)
    cleanup.add("DELETE", "/orders/{orderId}", {"orderId": order.json()["id"]})
    assert order.json()["total_price"] == round(2.35 * 3, 2)`,
  R3: `    product = api.call("POST", "/products", json={"sku": "RUL-0003", "name": "Rule tea", "price": 1.0, "stock": 10})
    assert_status(product, 201)
    cleanup.add("DELETE", "/products/{productId}", {"productId": product.json()["id"]})
    user = api.call("POST", "/users", json={"name": "Rule Three", "email": "r3@example.com"})
    assert_status(user, 201)
    cleanup.add("DELETE", "/users/{userId}", {"userId": user.json()["id"]})
    order = api.call("POST", "/orders", json={"userId": user.json()["id"], "productId": product.json()["id"], "quantity": 4})
    assert_status(order, 201)
    cancelled = api.call("DELETE", "/order/{orderId}", path_args={"orderId": order.json()["id"]})
    assert_status(cancelled, 204)
    after = api.call("GET", "/products/{productId}", path_args={"productId": product.json()["id"]})
    assert after.json()["stock"] == 10`,
  R4: `    product = api.call("POST", "/products", json={"sku": "RUL-0004", "name": "Rule tea", "price": 1.0, "stock": 10})
    assert_status(product, 201)
    cleanup.add("DELETE", "/products/{productId}", {"productId": product.json()["id"]})
    user = api.call("POST", "/users", json={"name": "Rule Four", "email": "r4@example.com"})
    assert_status(user, 201)
    cleanup.add("DELETE", "/users/{userId}", {"userId": user.json()["id"]})
    order = api.call("POST", "/orders", json={"userId": user.json()["id"], "productId": product.json()["id"], "quantity": 1, "deliveryDate": "2030-13-45"})
    if order.status_code < 300:
        cleanup.add("DELETE", "/orders/{orderId}", {"orderId": order.json()["id"]})
    assert_status(order, 400)`,
  R5: `    product = api.call("POST", "/products", json={"sku": "RUL-0005", "name": "Rule tea", "price": 1.0, "stock": 10})
    assert_status(product, 201)
    cleanup.add("DELETE", "/products/{productId}", {"productId": product.json()["id"]})
    mine = api.call("POST", "/users", json={"name": "Rule Five", "email": "r5@example.com"})
    assert_status(mine, 201)
    cleanup.add("DELETE", "/users/{userId}", {"userId": mine.json()["id"]})
    order = api.call("POST", "/orders", json={"userId": mine.json()["id"], "productId": product.json()["id"], "qty": 1})
    assert_status(order, 201)
    cleanup.add("DELETE", "/orders/{orderId}", {"orderId": order.json()["id"]})
    listed = api.call("GET", "/orders", query={"userId": mine.json()["id"]})
    assert_status(listed, 200)
    assert [o["userId"] for o in listed.json()] == [mine.json()["id"]]`,
};

function answer(prompt: string): Record<string, unknown> {
  const stub = /pytest\.fail\("(TC-\d+) is not written yet: the scenario of [^"]*? (R\d+)"\)/.exec(prompt);
  if (stub && prompt.includes('is not written yet')) {
    const [line, , rule] = stub;
    return {
      verdict: 'edits',
      rationale: `The scenario of rule ${rule}, from its text and the operations it names.`,
      edits: [
        {
          file: 'test_business.py',
          search: `    ${line}`,
          replace: SCENARIOS[rule!] ?? '    pass',
          content: null,
        },
      ],
      bug: null,
      diagnosis: null,
    };
  }
  if (prompt.includes('an order of 5 over a stock of 3 answered 201'))
    return {
      verdict: 'product-bug',
      rationale:
        'high: rule R1 says an order over stock is refused with 409; the service accepts it and the stock goes below zero',
      edits: [],
      bug: {
        summary: 'POST /orders accepts an order for more units than the product has in stock (rule R1)',
        expected: '409, and the stock unchanged (rules.md R1)',
        actual: '201: the order is placed and the stock goes below zero',
        evidence: 'assert order.status_code == 409 failed: an order of 5 over a stock of 3 answered 201',
        file: null,
        symbol: null,
      },
      diagnosis: null,
    };
  return {
    verdict: 'unfixable',
    rationale: 'nothing to add',
    edits: [],
    bug: null,
    diagnosis: 'not a failure this script knows',
  };
}

export async function startScriptedOpenAI(): Promise<ScriptedOpenAI> {
  const calls: string[] = [];
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      const body = JSON.parse(raw || '{}') as { model?: string; messages?: Array<{ content?: unknown }> };
      const prompt = (body.messages ?? [])
        .map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content)))
        .join('\n');
      calls.push(prompt);
      const reply = {
        id: `chatcmpl-${calls.length}`,
        object: 'chat.completion',
        created: 1_700_000_000,
        model: body.model ?? 'gpt-4.1-mini',
        choices: [
          {
            index: 0,
            message: {
              role: 'assistant',
              content: null,
              refusal: null,
              tool_calls: [
                {
                  id: 'call_1',
                  type: 'function',
                  function: { name: 'propose_fix', arguments: JSON.stringify(answer(prompt)) },
                },
              ],
            },
            finish_reason: 'tool_calls',
            logprobs: null,
          },
        ],
        usage: {
          prompt_tokens: 1200,
          completion_tokens: 300,
          total_tokens: 1500,
          prompt_tokens_details: { cached_tokens: 0 },
        },
      };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(reply));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    calls,
    close: () => new Promise((r) => server.close(() => r())),
  };
}
