import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createGateOptions, loadConfig } from '@suture/core/internal';
import { silentLogger } from '@suture/core/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { bugAnswer, call, editsAnswer, startMockOpenAI, type MockOpenAI } from '../mock-openai.js';
import { cleanup, FAILING_TEST, gate, RIGHT_FIX, WRONG_FIX } from './support.js';

let mock: MockOpenAI;
const saved = { key: process.env.OPENAI_API_KEY, base: process.env.OPENAI_BASE_URL };
beforeAll(async () => {
  // The gate loads the fixer with this process's environment: keep the machine's own settings out.
  delete process.env.OPENAI_API_KEY;
  delete process.env.OPENAI_BASE_URL;
  mock = await startMockOpenAI();
});
afterEach(() => mock.reset());
afterAll(async () => {
  await mock.close();
  await cleanup();
  if (saved.key !== undefined) process.env.OPENAI_API_KEY = saved.key;
  if (saved.base !== undefined) process.env.OPENAI_BASE_URL = saved.base;
});

const KEY = 'cfg-secret-key-0123456789';

describe('the gate on a Jest project with the OpenAI fixer', () => {
  it('heals on the second attempt, shows attempt 1 in the second prompt, and totals tokens and cost', async () => {
    mock.requireKey = KEY;
    mock.script(
      call(editsAnswer([WRONG_FIX], 'the rate must be 20%'), { tokens: { input: 3000, output: 200 } }),
      call(editsAnswer([RIGHT_FIX]), { tokens: { input: 3500, output: 180 } }),
    );
    const run = await gate({
      fixer: {
        baseURL: mock.baseURL,
        model: 'gpt-4.1-mini',
        apiKey: KEY,
        prices: { 'gpt-4.1-mini': { input: 0.4, output: 1.6 } },
      },
      heal: { maxAttempts: 3 },
    });
    const [failure] = run.report.projects[0]!.failures;
    expect(failure!.failure.tests).toEqual([FAILING_TEST]);
    expect(failure!.outcome).toBe('healed');
    expect(failure!.attempts.map((a) => [a.fixer, a.verdict])).toEqual([
      ['@suture/llm-openai', 'failed-validation'],
      ['@suture/llm-openai', 'healed'],
    ]);
    expect(failure!.attempts[0]!.rationale).toBe('the rate must be 20%');
    expect(run.report.patch).toContain('+  return amount >= 100 ? amount * 0.1 : 0;');
    expect(run.after).toEqual(run.before);

    const [first, second] = mock.completions().map((r) => r.body.messages[1].content as string);
    expect(first).toContain('None: this is the first attempt.');
    expect(second).toContain(
      '### Attempt 1 (@suture/llm-openai): applied, and the failing tests were re-run: they still fail',
    );
    expect(second).toContain('Its rationale:\n\n```text\nthe rate must be 20%');
    expect(second).toContain('+  return amount > 100 ? amount * 0.2 : 0;');
    expect(second).toContain('This is attempt 2 of 3.');

    expect(run.written.totals).toMatchObject({
      failures: 1,
      healed: 1,
      llmCalls: 2,
      inputTokens: 6500,
      outputTokens: 380,
    });
    expect(run.written.totals.costUsd).toBeCloseTo((6500 * 0.4 + 380 * 1.6) / 1e6, 9);
    expect(run.written.projects[0]!.failures[0]!.attempts.map((a) => a.usage?.model)).toEqual([
      'gpt-4.1-mini',
      'gpt-4.1-mini',
    ]);

    // the key from the config file travels only in the Authorization header
    for (const request of mock.completions()) {
      expect(request.headers.authorization).toBe(`Bearer ${KEY}`);
      expect(request.raw).not.toContain(KEY);
    }
    for (const [name, content] of run.runFiles) expect(content, name).not.toContain(KEY);
  });

  it('keeps the heal in the tree in fix mode, over the Responses API', async () => {
    mock.script(call(editsAnswer([RIGHT_FIX])));
    const run = await gate({
      fixer: { baseURL: mock.baseURL, model: 'gpt-5-mini', api: 'responses' },
      mode: 'fix',
    });
    expect(run.report.projects[0]!.failures.map((f) => f.outcome)).toEqual(['healed']);
    expect(run.report.exitCode).toBe(0);
    expect(mock.completions().map((r) => r.path)).toEqual(['/v1/responses']);
    expect(await readFile(join(run.root, 'src/pricing.js'), 'utf8')).toContain(
      'return amount >= 100 ? amount * 0.1 : 0;',
    );
  });

  it('refuses a proposal outside the scope and writes nothing', async () => {
    mock.script(
      call(
        editsAnswer(
          [{ file: 'src/legacy.js', search: 'return items.length;', replace: 'return 0;' }],
          'rewrite the old checkout',
        ),
      ),
    );
    const run = await gate({ fixer: { baseURL: mock.baseURL, model: 'qwen2.5-coder' } });
    const [failure] = run.report.projects[0]!.failures;
    expect(failure!.attempts.map((a) => a.verdict)).toEqual(['refused']);
    expect(failure!.attempts[0]!.reason).toMatch(
      /src\/legacy\.js is outside the failure's scope \(in scope: .*src\/pricing\.js/,
    );
    expect(failure!.outcome).toBe('exhausted');
    expect(run.after).toEqual(run.before);
    expect(run.report.patch ?? '').toBe('');
    expect(run.written.totals).toMatchObject({
      llmCalls: 1,
      inputTokens: 1200,
      outputTokens: 150,
      healed: 0,
      stillFailing: 1,
    });
  });

  it('reports a product-bug verdict in bug_report.json and leaves the code alone', async () => {
    mock.script(
      call(
        bugAnswer({
          summary: 'discount() starts above 100, but orders of 100 or more get 10% off',
          expected: 'total of 100 is 90',
          actual: 'total of 100 is 100',
          evidence: 'src/pricing.js: amount > 100',
          file: 'src/pricing.js',
          symbol: 'discount',
        }),
      ),
    );
    const run = await gate({
      fixer: { baseURL: mock.baseURL, model: 'qwen2.5-coder' },
      heal: { editable: 'tests' },
    });
    const [failure] = run.report.projects[0]!.failures;
    expect(failure!.outcome).toBe('product-bug');
    expect(run.after).toEqual(run.before);
    expect(mock.completions()[0]!.body.messages[1].content).toContain(
      'You may edit only test files, not the code under test.',
    );
    const bugs = JSON.parse(run.runFiles.get('bug_report.json')!) as { bugs: unknown[] };
    expect(bugs.bugs).toEqual([
      expect.objectContaining({
        project: 'shop',
        tests: [FAILING_TEST],
        fixer: '@suture/llm-openai',
        summary: 'discount() starts above 100, but orders of 100 or more get 10% off',
        expected: 'total of 100 is 90',
        actual: 'total of 100 is 100',
        file: 'src/pricing.js',
        symbol: 'discount',
      }),
    ]);
    expect(run.written.totals).toMatchObject({ bugs: 1, llmCalls: 1 });
  });

  it('heals against a server configured like a local Ollama: no key, a placeholder sent, no cost; doctor is green', async () => {
    mock.script(call(editsAnswer([RIGHT_FIX]), { tokens: { input: 2500, output: 120 } }));
    const run = await gate({ fixer: { baseURL: mock.baseURL, model: 'qwen2.5-coder' } });
    expect(run.report.projects[0]!.failures.map((f) => f.outcome)).toEqual(['healed']);
    const [request] = mock.completions();
    expect(request!.path).toBe('/v1/chat/completions');
    expect(request!.headers.authorization).toBe('Bearer no-key');
    expect(request!.body).toMatchObject({
      model: 'qwen2.5-coder',
      max_tokens: 16_384,
      tool_choice: { type: 'function', function: { name: 'propose_fix' } },
    });
    expect(request!.body.tools[0].function.strict).toBe(true);
    expect(run.written.totals).toMatchObject({
      llmCalls: 1,
      inputTokens: 2500,
      outputTokens: 120,
      costUsd: 0,
    });

    // what `suture doctor` does with the same config: a models list, no tokens
    mock.reset();
    const options = await createGateOptions(await loadConfig({ cwd: run.root }), {
      mode: 'check',
      logger: silentLogger,
      output: { stream: { write: () => true }, env: {} },
      reporters: ['json'],
    });
    const checks = await options.fixers[0]!.doctor!();
    expect(checks.map((c) => [c.name, c.status])).toEqual([
      ['api key', 'ok'],
      ['endpoint', 'ok'],
      ['model', 'ok'],
    ]);
    expect(mock.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /v1/models']);
  });
});
