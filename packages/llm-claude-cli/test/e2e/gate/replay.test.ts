import { existsSync } from 'node:fs';
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ConfigInput, FailureReport, GateReport } from '@suture/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClaudeOptions } from '../../../src/options.js';
import { editAnswer } from '../../support/answers.js';
import { claudeBinary, isolatedEnv, removeHomes, TEST_KEY, TEST_MODEL } from '../../support/claude.js';
import { startMockAnthropic, type MockAnthropic } from '../../support/mock-anthropic.js';
import { cleanup, gate, sandbox, untouched } from './support.js';

// The gate with the claude fixer replaying answers recorded on cassettes under ./cassettes, in
// both modes: no claude binary, no key, no network. SUTURE_RECORD_CASSETTES=1 records them again
// with the real claude (and the SDK) against the local Messages API, which the tests script.
const RECORD = process.env.SUTURE_RECORD_CASSETTES === '1';
const CASSETTES = fileURLToPath(new URL('./cassettes/', import.meta.url));
const TEST = 'tests/test_pricing.py::test_discount_at_ten_units';
const RIGHT = editAnswer('shop/pricing.py', 'if units > 10:', 'if units >= 10:');
const WRONG = editAnswer('shop/pricing.py', 'return 0.10', 'return 0.15', 'the discount rate is too low');

let mock: MockAnthropic;
const saved = { key: process.env.ANTHROPIC_API_KEY, mode: process.env.SUTURE_CASSETTE_MODE };
beforeAll(async () => {
  // what CI has: no key, and no mode override
  delete process.env.ANTHROPIC_API_KEY;
  delete process.env.SUTURE_CASSETTE_MODE;
  mock = await startMockAnthropic();
});
afterAll(async () => {
  await mock.close();
  await cleanup();
  removeHomes();
  if (saved.key !== undefined) process.env.ANTHROPIC_API_KEY = saved.key;
  if (saved.mode !== undefined) process.env.SUTURE_CASSETTE_MODE = saved.mode;
});

/** The fixer entry: recording talks to the mock; replaying has nothing to talk with. */
async function claude(scenario: string, options: ClaudeOptions): Promise<ConfigInput['fixers']> {
  const path = join(CASSETTES, scenario);
  if (RECORD) await rm(path, { recursive: true, force: true });
  const cassette = { path, mode: RECORD ? ('record' as const) : ('replay' as const) };
  const reach =
    options.mode === 'api'
      ? { baseURL: mock.url, ...(RECORD ? { apiKey: TEST_KEY } : {}) }
      : RECORD
        ? { command: claudeBinary(), env: isolatedEnv(mock.url) }
        : { command: '/nonexistent/bin/claude' };
  return [['claude', { model: TEST_MODEL, retries: 0, ...options, ...reach, cassette }]];
}

function config(fixers: ConfigInput['fixers']): ConfigInput {
  return {
    projects: [{ name: 'shop', root: 'app', runner: 'pytest' }],
    fixers,
    heal: { maxAttempts: 3, flakyReruns: 0 },
    reporters: ['json', 'patch'],
  };
}
/** The failure, after checking the cassette still matches the prompts suture renders. */
function failureOf(report: GateReport): FailureReport {
  const failure = report.projects[0]!.failures.find((f) => f.failure.tests.includes(TEST))!;
  const miss = failure.attempts.find((a) => a.reason?.includes('has no answer for this request'));
  if (miss && !RECORD)
    throw new Error(
      `the cassettes under test/e2e/gate/cassettes no longer match the prompt suture renders (its prompts, evidence or scope reasons changed): record them again with \`SUTURE_RECORD_CASSETTES=1 npx vitest run test/e2e/gate/replay.test.ts\` in packages/llm-claude-cli and commit them\n${miss.reason}`,
    );
  return failure;
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

/** The cassette's files, parsed, in the order they were recorded (a follow-up names the one it continues). */
async function tape(scenario: string): Promise<TapeRecord[]> {
  const dir = join(CASSETTES, scenario);
  const files = await readdir(dir);
  const records = await Promise.all(
    files.map(async (f) => {
      const raw = await readFile(join(dir, f), 'utf8');
      return { ...(JSON.parse(raw) as Omit<TapeRecord, 'raw'>), raw };
    }),
  );
  return records.sort((a, b) => a.attempt - b.attempt);
}

describe('the claude fixer on a cassette', () => {
  it('heals in two attempts of one claude session, replayed without claude, key or network', async () => {
    const box = await sandbox(config(await claude('cli-heal', {})));
    mock.requests.length = 0;
    if (RECORD) mock.enqueue({ kind: 'tool', input: WRONG }, { kind: 'tool', input: RIGHT });
    const { report, json, runDir } = await gate(box);

    const f = failureOf(report);
    expect(f.attempts.map((a) => [a.fixer, a.verdict])).toEqual([
      ['@suture/llm-claude-cli', 'failed-validation'],
      ['@suture/llm-claude-cli', 'healed'],
    ]);
    expect(await readFile(join(runDir, 'fixes.patch'), 'utf8')).toContain('+    if units >= 10:');
    expect(mock.fixCalls()).toHaveLength(RECORD ? 2 : 0);
    // a replay spends nothing and says so; the usage recorded with each answer is shown as replayed
    const tokens = (u: { inputTokens: number; cacheWriteTokens: number; cacheReadTokens: number }): number =>
      u.inputTokens + u.cacheWriteTokens + u.cacheReadTokens;
    if (RECORD) {
      expect(json.totals).toMatchObject({ healed: 1, llmCalls: 2, replayedAnswers: 0 });
      expect(tokens(json.totals)).toBeGreaterThan(0);
    } else {
      expect(json.totals).toMatchObject({ healed: 1, llmCalls: 0, costUsd: 0, replayedAnswers: 2 });
      expect(tokens(json.totals)).toBe(0);
      for (const attempt of f.attempts) {
        expect(attempt.usage).toMatchObject({ calls: 0, costUsd: 0, replayed: { answers: 1, calls: 1 } });
        expect(tokens(attempt.usage!.replayed!)).toBeGreaterThan(0);
        expect(attempt.usage!.replayed!.costUsd).toBeGreaterThan(0);
      }
    }
    expect(await untouched(box)).toBe(true);

    // a readable cassette: the prompt as lines, the answer, and the follow-up chained to the first call
    const [first, second] = await tape('cli-heal');
    expect(first).toMatchObject({ fixer: '@suture/llm-claude-cli', model: TEST_MODEL, attempt: 1 });
    expect(first!.request.continues).toBeNull();
    expect(first!.request.user).toContain('    if units > 10:');
    expect(first!.reply).toMatchObject({ answer: WRONG, conversation: 'set' });
    expect(second!.request.continues).toBe(first!.key);
    expect(second!.request.user.join('\n')).toContain('This is attempt 2 of 3');
    expect(second!.reply).toMatchObject({ answer: RIGHT });
    for (const record of [first, second]) {
      expect(record!.raw).not.toContain(TEST_KEY);
      expect(record!.raw).not.toContain(box.dir);
    }
  });

  it('reports a product bug from the Messages API replayed without a key', async () => {
    const fixers = await claude('api-product-bug', { mode: 'api' });
    const box = await sandbox({
      ...config(fixers),
      heal: { maxAttempts: 1, flakyReruns: 0, editable: 'tests' },
    });
    mock.requests.length = 0;
    if (RECORD)
      mock.enqueue({
        kind: 'tool',
        input: {
          verdict: 'product-bug',
          rationale: 'the test states the documented rule',
          edits: [],
          bug: {
            summary: 'bulk_discount gives no discount at exactly 10 units',
            expected: '0.10 for 10 units',
            actual: '0.0',
            evidence: 'assert 0.0 == 0.1',
            file: 'shop/pricing.py',
            symbol: 'bulk_discount',
          },
          diagnosis: null,
        },
      });
    const { report, json } = await gate(box);

    expect(failureOf(report)).toMatchObject({
      outcome: 'product-bug',
      attempts: [{ verdict: 'product-bug', fixer: '@suture/llm-claude-cli' }],
    });
    expect(json.totals).toMatchObject(
      RECORD ? { bugs: 1, llmCalls: 1 } : { bugs: 1, llmCalls: 0, replayedAnswers: 1 },
    );
    expect(mock.requests.filter((r) => r.method === 'POST')).toHaveLength(RECORD ? 1 : 0);
    const [record] = await tape('api-product-bug');
    expect(record!.request.user.join('\n')).toContain(
      'You may edit only test files, not the code under test.',
    );
    expect(record!.raw).not.toContain(TEST_KEY);
  });

  it('fails the attempt with the request named when the cassette has no answer for it', async () => {
    // the cassette of the first test, and a failure it never saw: the bug moved
    const box = await sandbox(
      config([
        [
          'claude',
          {
            command: '/nonexistent/bin/claude',
            model: TEST_MODEL,
            cassette: { path: join(CASSETTES, 'cli-heal'), mode: 'replay' },
          },
        ],
      ]),
    );
    const pricing = join(box.dir, 'app/shop/pricing.py');
    await writeFile(pricing, (await readFile(pricing, 'utf8')).replace('units > 10', 'units > 11'));
    mock.requests.length = 0;
    const { report } = await gate(box);

    const f = report.projects[0]!.failures.find((x) => x.failure.tests.includes(TEST))!;
    expect(f.outcome).toBe('exhausted');
    expect(f.attempts[0]).toMatchObject({ verdict: 'fixer-error' });
    expect(f.attempts[0]!.reason).toMatch(
      /the cassette .*cassettes\/cli-heal has no answer for this request \(.*\.json: @suture\/llm-claude-cli, model "claude-sonnet-4-6", "AssertionError: .*", attempt 1; it begins ".*"\); record it with the cassette mode "record" or "auto"/,
    );
    expect(existsSync(join(CASSETTES, 'cli-heal'))).toBe(true);
    expect(mock.requests).toHaveLength(0);
  });
});
