import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FailureReport, GateReport } from '@suture/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bugAnswer, call, editsAnswer, startMockOpenAI, type MockOpenAI } from '../mock-openai.js';
import { cleanup, FAILING_TEST, gate, RIGHT_FIX, WRONG_FIX } from './support.js';

// The gate with the OpenAI fixer replaying answers recorded on cassettes under ./cassettes: no key
// and no request to any server. SUTURE_RECORD_CASSETTES=1 records them again through the real SDK
// against the local server, which the tests script.
const RECORD = process.env.SUTURE_RECORD_CASSETTES === '1';
const CASSETTES = fileURLToPath(new URL('./cassettes/', import.meta.url));
const KEY = 'sk-record-0123456789abcdef';

let mock: MockOpenAI;
const saved = {
  key: process.env.OPENAI_API_KEY,
  base: process.env.OPENAI_BASE_URL,
  mode: process.env.SUTURE_CASSETTE_MODE,
};
beforeAll(async () => {
  // what CI has: no key, and no mode override
  delete process.env.OPENAI_API_KEY;
  delete process.env.OPENAI_BASE_URL;
  delete process.env.SUTURE_CASSETTE_MODE;
  mock = await startMockOpenAI();
});
afterAll(async () => {
  await mock.close();
  await cleanup();
  for (const [name, value] of [
    ['OPENAI_API_KEY', saved.key],
    ['OPENAI_BASE_URL', saved.base],
    ['SUTURE_CASSETTE_MODE', saved.mode],
  ] as const)
    if (value !== undefined) process.env[name] = value;
});

/** Fixer options on the scenario's cassette; the key only when recording. */
async function onTape(scenario: string, options: Record<string, unknown>): Promise<Record<string, unknown>> {
  const path = join(CASSETTES, scenario);
  if (RECORD) await rm(path, { recursive: true, force: true });
  mock.reset();
  return {
    baseURL: mock.baseURL,
    ...options,
    ...(RECORD ? { apiKey: KEY } : {}),
    cassette: { path, mode: RECORD ? 'record' : 'replay' },
  };
}

/** A cassette file as the tests read it. */
interface TapeRecord {
  key: string;
  fixer: string;
  model: string;
  attempt: number;
  request: { continues: string | null; system: string[]; user: string[] };
  reply: Record<string, unknown>;
  /** The file's text. */
  raw: string;
}

async function tape(scenario: string): Promise<TapeRecord[]> {
  const dir = join(CASSETTES, scenario);
  const records = await Promise.all(
    (await readdir(dir)).map(async (f) => {
      const raw = await readFile(join(dir, f), 'utf8');
      return { ...(JSON.parse(raw) as Omit<TapeRecord, 'raw'>), raw };
    }),
  );
  return records.sort((a, b) => a.attempt - b.attempt);
}
const lines = (record: TapeRecord | undefined): string => record!.request.user.join('\n');

/** The only failure, after checking the cassette still matches the prompts suture renders. */
function only(report: GateReport): FailureReport {
  const [failure] = report.projects[0]!.failures;
  const miss = failure!.attempts.find((a) => a.reason?.includes('has no answer for this request'));
  if (miss && !RECORD)
    throw new Error(
      `the cassettes under test/e2e/cassettes no longer match the prompt suture renders (its prompts, evidence or scope reasons changed): record them again with \`SUTURE_RECORD_CASSETTES=1 npx vitest run test/e2e/replay.test.ts\` in packages/llm-openai and commit them\n${miss.reason}`,
    );
  return failure!;
}

describe('the OpenAI fixer on a cassette', () => {
  it('heals on the second attempt over Chat Completions, replayed without a key or a request', async () => {
    const fixer = await onTape('chat-heal', {
      model: 'gpt-4.1-mini',
      prices: { 'gpt-4.1-mini': { input: 0.4, output: 1.6 } },
    });
    mock.script(
      call(editsAnswer([WRONG_FIX], 'the rate must be 20%'), { tokens: { input: 3000, output: 200 } }),
      call(editsAnswer([RIGHT_FIX]), { tokens: { input: 3500, output: 180 } }),
    );
    const run = await gate({ fixer, heal: { maxAttempts: 3 } });

    const failure = only(run.report);
    expect(failure!.failure.tests).toEqual([FAILING_TEST]);
    expect(failure!.attempts.map((a) => [a.fixer, a.verdict])).toEqual([
      ['@suture/llm-openai', 'failed-validation'],
      ['@suture/llm-openai', 'healed'],
    ]);
    expect(run.report.patch).toContain('+  return amount >= 100 ? amount * 0.1 : 0;');
    expect(run.after).toEqual(run.before);
    // a replay spends nothing: no call, token or cost counts, and the totals say how many answers
    // came from the tape; each attempt shows the usage recorded with its answer as replayed
    const cost = (6500 * 0.4 + 380 * 1.6) / 1e6;
    if (RECORD) {
      expect(run.written.totals).toMatchObject({ llmCalls: 2, inputTokens: 6500, replayedAnswers: 0 });
      expect(run.written.totals.costUsd).toBeCloseTo(cost, 9);
    } else {
      expect(run.written.totals).toMatchObject({ llmCalls: 0, inputTokens: 0, outputTokens: 0, costUsd: 0 });
      expect(run.written.totals.replayedAnswers).toBe(2);
      expect(failure!.attempts.map((a) => a.usage?.replayed)).toEqual([
        expect.objectContaining({ answers: 1, calls: 1, inputTokens: 3000, outputTokens: 200 }),
        expect.objectContaining({ answers: 1, calls: 1, inputTokens: 3500, outputTokens: 180 }),
      ]);
      const recorded = failure!.attempts.reduce((sum, a) => sum + (a.usage?.replayed?.costUsd ?? 0), 0);
      expect(recorded).toBeCloseTo(cost, 9);
    }
    expect(mock.requests).toHaveLength(RECORD ? 2 : 0);

    // readable files: the prompt as lines, the answer, and the second prompt with the first attempt
    const [first, second] = await tape('chat-heal');
    expect(first).toMatchObject({ fixer: '@suture/llm-openai', model: 'gpt-4.1-mini', attempt: 1 });
    expect(lines(first)).toContain('None: this is the first attempt.');
    expect(lines(second)).toContain('+  return amount > 100 ? amount * 0.2 : 0;');
    expect(second!.reply).toMatchObject({ answer: editsAnswer([RIGHT_FIX]) });
    for (const record of [first, second]) {
      expect(record!.raw).not.toContain(KEY);
      expect(record!.raw).not.toContain(run.root);
    }
  });

  it('reports a product bug over the Responses API, replayed without a key or a request', async () => {
    const fixer = await onTape('responses-product-bug', { model: 'gpt-5-mini', api: 'responses' });
    const bug = {
      summary: 'discount() starts above 100, but orders of 100 or more get 10% off',
      expected: 'total of 100 is 90',
      actual: 'total of 100 is 100',
      evidence: 'src/pricing.js: amount > 100',
      file: 'src/pricing.js',
      symbol: 'discount',
    };
    mock.script(call(bugAnswer(bug)));
    const run = await gate({ fixer, heal: { editable: 'tests' } });

    expect(only(run.report).outcome).toBe('product-bug');
    const bugs = JSON.parse(run.runFiles.get('bug_report.json')!) as { bugs: unknown[] };
    expect(bugs.bugs).toEqual([expect.objectContaining({ tests: [FAILING_TEST], ...bug })]);
    expect(run.written.totals).toMatchObject(
      RECORD ? { bugs: 1, llmCalls: 1 } : { bugs: 1, llmCalls: 0, replayedAnswers: 1 },
    );
    expect(mock.requests.map((r) => r.path)).toEqual(RECORD ? ['/v1/responses'] : []);
    const [record] = await tape('responses-product-bug');
    expect(lines(record)).toContain('You may edit only test files, not the code under test.');
  });

  it('names the request a cassette has no answer for, and asks no server', async () => {
    mock.reset();
    const run = await gate({
      fixer: {
        baseURL: mock.baseURL,
        model: 'gpt-4.1-mini',
        cassette: { path: join(CASSETTES, 'chat-heal'), mode: 'replay' },
      },
      // the same failure with another policy is another request
      heal: { editable: 'tests' },
    });
    const [failure] = run.report.projects[0]!.failures;
    expect(failure!.attempts.map((a) => a.verdict)).toEqual(['fixer-error']);
    expect(failure!.attempts[0]!.reason).toMatch(
      /the cassette .*cassettes\/chat-heal has no answer for this request \(.*\.json: @suture\/llm-openai, model "gpt-4\.1-mini", ".*", attempt 1; it begins ".*"\); record it with the cassette mode "record" or "auto" \(SUTURE_CASSETTE_MODE=auto\) where the model can be reached/,
    );
    expect(mock.requests).toHaveLength(0);
  });
});
