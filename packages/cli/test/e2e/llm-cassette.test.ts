import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cp, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { GateReport } from '@suture/core';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, suture, workspace } from './cli-support.js';

// A team records the OpenAI fixer's answers on a cassette once, where the model can be reached,
// commits it, and CI runs `suture run` with no key and no network: the same heal, the same report.
// The model is a local server speaking Chat Completions, driven through the real openai SDK.

const PROJECT: Record<string, string> = {
  'shop/__init__.py': '',
  'shop/pricing.py':
    'def bulk_discount(units):\n    """10% off for 10 units or more."""\n    if units > 10:\n        return 0.10\n    return 0.0\n',
  'tests/test_pricing.py':
    'from shop.pricing import bulk_discount\n\n\ndef test_discount_at_ten_units():\n    assert bulk_discount(10) == 0.10\n\n\ndef test_no_discount_below_ten():\n    assert bulk_discount(9) == 0.0\n',
};
const KEY = 'sk-team-0123456789abcdef';
const edit = (search: string, replace: string): Record<string, unknown> => ({
  verdict: 'edits',
  rationale: `${search} -> ${replace}`,
  edits: [{ file: 'shop/pricing.py', search, replace, content: null }],
  bug: null,
  diagnosis: null,
});

/** Chat Completions answering each request with the next proposal, every request counted. */
async function model(
  answers: Array<Record<string, unknown>>,
): Promise<{ url: string; server: Server; seen: string[] }> {
  const seen: string[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      seen.push(`${req.method} ${req.url} ${String(req.headers.authorization)}`);
      const answer = answers.shift();
      res.writeHead(answer ? 200 : 500, { 'content-type': 'application/json' });
      const parsed = JSON.parse(body) as { model: string };
      res.end(
        JSON.stringify(
          answer
            ? {
                id: `chatcmpl-${seen.length}`,
                object: 'chat.completion',
                created: 0,
                model: parsed.model,
                choices: [
                  {
                    index: 0,
                    finish_reason: 'tool_calls',
                    message: {
                      role: 'assistant',
                      content: null,
                      tool_calls: [
                        {
                          id: `call_${seen.length}`,
                          type: 'function',
                          function: { name: 'propose_fix', arguments: JSON.stringify(answer) },
                        },
                      ],
                    },
                  },
                ],
                usage: {
                  prompt_tokens: 1500 + seen.length,
                  completion_tokens: 90,
                  total_tokens: 1590 + seen.length,
                },
              }
            : { error: { message: 'no answer scripted', type: 'server_error' } },
        ),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, server, seen };
}

/** The team's repository: the project and a config whose fixer records to suture-cassettes/. */
async function repository(baseURL: string): Promise<string> {
  const dir = await workspace();
  for (const [file, text] of Object.entries(PROJECT)) {
    await mkdir(join(dir, file, '..'), { recursive: true });
    await writeFile(join(dir, file), text);
  }
  const config = {
    projects: [{ name: 'shop', root: '.', runner: 'pytest' }],
    fixers: [['openai', { model: 'gpt-4.1-mini', baseURL, cassette: 'suture-cassettes' }]],
    heal: { maxAttempts: 2, flakyReruns: 0 },
    reporters: ['json', 'junit', 'patch'],
  };
  await writeFile(join(dir, 'suture.config.json'), `${JSON.stringify(config, null, 2)}\n`);
  return dir;
}

/** What a run decided, without what differs between machines and runs (paths, times). */
function outcome(report: GateReport): unknown {
  return {
    exitCode: report.exitCode,
    failures: report.projects.flatMap((p) =>
      p.failures.map((f) => ({
        tests: f.failure.tests,
        outcome: f.outcome,
        // a replayed answer's usage is what the tape recorded
        attempts: f.attempts.map((a) => {
          const usage = a.usage?.replayed ?? a.usage;
          return [a.verdict, a.edits, a.reason, usage?.inputTokens, usage?.calls];
        }),
      })),
    ),
    totals: spentless(report.totals),
  };
}

/** Totals without what the run spent on the model, which a replay does not. */
function spentless(totals: GateReport['totals']): Record<string, number> {
  const spent = new Set([
    'llmCalls',
    'inputTokens',
    'outputTokens',
    'cacheReadTokens',
    'cacheWriteTokens',
    'costUsd',
    'replayedAnswers',
  ]);
  return Object.fromEntries(Object.entries(totals).filter(([key]) => !spent.has(key)));
}

async function run(
  dir: string,
  env: NodeJS.ProcessEnv,
): Promise<{ code: number | null; report: GateReport }> {
  const result = await suture(['run', '--fix', '--out', 'out'], dir, env);
  const report = JSON.parse(await readFile(join(dir, 'out', 'report.json'), 'utf8')) as GateReport;
  return { code: result.code, report };
}

const offline = { OPENAI_API_KEY: undefined, OPENAI_BASE_URL: undefined, SUTURE_CASSETTE_MODE: undefined };

afterAll(cleanup);

describe('an LLM fixer on a committed cassette through `suture run`', () => {
  it('heals in CI with no key and no network exactly as it did when recorded', async () => {
    const live = await model([edit('return 0.10', 'return 0.15'), edit('if units > 10:', 'if units >= 10:')]);
    const dev = await repository(live.url);
    let recorded: Awaited<ReturnType<typeof run>>;
    try {
      recorded = await run(dev, { ...offline, OPENAI_API_KEY: KEY });
    } finally {
      await new Promise<void>((resolve) => live.server.close(() => resolve()));
    }
    expect(recorded.code).toBe(0);
    expect(live.seen).toEqual([
      `POST /v1/chat/completions Bearer ${KEY}`,
      `POST /v1/chat/completions Bearer ${KEY}`,
    ]);
    const tape = await readdir(join(dev, 'suture-cassettes'));
    expect(tape).toHaveLength(2);
    for (const file of tape)
      expect(await readFile(join(dev, 'suture-cassettes', file), 'utf8')).not.toContain(KEY);

    // CI: a fresh checkout elsewhere with the committed cassette; the endpoint is gone, no key is set
    const ci = await repository(live.url);
    await cp(join(dev, 'suture-cassettes'), join(ci, 'suture-cassettes'), { recursive: true });
    const replayed = await run(ci, offline);
    expect(replayed.code).toBe(0);
    expect(outcome(replayed.report)).toEqual(outcome(recorded.report));
    const [failure] = replayed.report.projects[0]!.failures;
    expect([failure!.outcome, failure!.attempts.map((a) => a.verdict)]).toEqual([
      'healed',
      ['failed-validation', 'healed'],
    ]);
    // the replay spent nothing, and the report says the answers came from the cassette
    expect(recorded.report.totals).toMatchObject({ llmCalls: 2, healed: 1, replayedAnswers: 0 });
    expect(replayed.report.totals).toMatchObject({ llmCalls: 0, costUsd: 0, inputTokens: 0, healed: 1 });
    expect(replayed.report.totals.replayedAnswers).toBe(2);
    expect(failure!.attempts.map((a) => a.usage?.replayed?.answers)).toEqual([1, 1]);
    expect(await readFile(join(ci, 'shop/pricing.py'), 'utf8')).toBe(
      await readFile(join(dev, 'shop/pricing.py'), 'utf8'),
    );
    expect(await readFile(join(ci, 'shop/pricing.py'), 'utf8')).toContain('if units >= 10:');
    expect(await readFile(join(ci, 'out/results.xml'), 'utf8')).toContain('test_discount_at_ten_units');
    // nothing new was recorded
    expect(await readdir(join(ci, 'suture-cassettes'))).toEqual(tape);
  });

  it('in replay mode fails a request the cassette lacks, naming it, instead of calling the model', async () => {
    const ci = await repository('http://127.0.0.1:9/v1');
    // a cassette recorded for other code: the failure's prompt is not on it
    await mkdir(join(ci, 'suture-cassettes'));
    await writeFile(
      join(ci, 'shop/pricing.py'),
      PROJECT['shop/pricing.py']!.replace('units > 10', 'units > 11'),
    );
    const { code, report } = await run(ci, { ...offline, SUTURE_CASSETTE_MODE: 'replay' });
    expect(code).toBe(1);
    const [failure] = report.projects[0]!.failures;
    expect(failure!.attempts.map((a) => a.verdict)).toEqual(['fixer-error', 'fixer-error']);
    expect(failure!.attempts[0]!.reason).toMatch(
      /the cassette .*suture-cassettes has no answer for this request \(.*suture-cassettes\/[0-9a-f]{16}\.json: @suture\/llm-openai, model "gpt-4\.1-mini", "AssertionError: .*", attempt 1; it begins "A python test fails.*"\); record it with the cassette mode "record" or "auto"/,
    );
    expect(report.totals.llmCalls).toBe(0);
  });
});
