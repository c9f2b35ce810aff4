import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AttemptSummary, FixProposalInput, Usage } from '../api/contracts/fix.js';
import { FixerError } from '../api/errors.js';
import { sampleFixerContext, sampleFixRequest } from '../testing/sample-fix-request.js';
import { replayedUsage, resolveCassette } from './cassette.js';
import { startChatServer, type ChatServer } from './chat-server.test-support.js';
import { TEAM_KEY, teamFixer } from './llm-test-fixer.test-support.js';

let server: ChatServer;
let dir: string;
beforeAll(async () => {
  server = await startChatServer();
});
afterAll(() => server.close());
afterEach(async () => {
  server.requests.length = 0;
  if (dir) await rm(dir, { recursive: true, force: true });
});

const SECRET = 'hunter2-db-password-77';
const answer = (replace: string) => ({
  verdict: 'edits',
  rationale: `try ${replace}`,
  edits: [{ file: 'shop/pricing.py', search: 'if units > 10:', replace, content: null }],
  bug: null,
  diagnosis: null,
});
const attempt2 = sampleFixRequest({
  attempt: 2,
  history: [
    {
      attempt: 1,
      fixer: '@suture/llm-team',
      verdict: 'failed-validation',
      rationale: 'r',
      outcome: 'AssertionError: assert 0 == 0.1',
    } satisfies AttemptSummary,
  ],
});
async function failure(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('the proposal did not fail');
}

describe('a cassette', () => {
  it('records each request once as a readable, redacted file, and replays the run without calling the model', async () => {
    dir = await mkdtemp(join(tmpdir(), 'suture-cassette-'));
    const leaky = sampleFixRequest({
      failure: { ...sampleFixRequest().failure, evidence: `E   connect(password=${SECRET}) failed` },
    });
    const env = { SHOP_DB_PASSWORD: SECRET };
    server.script(
      { kind: 'call', answer: answer('if units >= 9:') },
      { kind: 'call', answer: answer('if units >= 10:') },
    );
    const recorder = teamFixer(server, { cassette: { path: 'tape', mode: 'record' } }, dir, env);
    const recorded = [
      await recorder.propose(leaky, sampleFixerContext()),
      await recorder.propose({ ...attempt2, failure: leaky.failure }, sampleFixerContext()),
    ];
    expect(server.requests).toHaveLength(2);

    const files = (await readdir(join(dir, 'tape'))).sort();
    expect(files).toHaveLength(2);
    const texts = await Promise.all(files.map((f) => readFile(join(dir, 'tape', f), 'utf8')));
    for (const text of texts) {
      expect(text).not.toContain(SECRET);
      expect(text).not.toContain(TEAM_KEY);
    }
    const records = texts.map(
      (t) => JSON.parse(t) as { request: { user: string[]; continues: string | null }; key: string },
    );
    const followUp = records.find((r) => r.request.continues !== null)!;
    const opening = records.find((r) => r.request.continues === null)!;
    expect(followUp.request.continues).toBe(opening.key);
    expect(opening.request.user).toContain('E   connect(password=[REDACTED]) failed');

    // replay: the server is not asked (it would answer 500, having no scripted reply left)
    const player = teamFixer(server, { cassette: { path: 'tape', mode: 'replay' } }, dir, env);
    const replayed = [
      await player.propose(leaky, sampleFixerContext()),
      await player.propose({ ...attempt2, failure: leaky.failure }, sampleFixerContext()),
    ];
    // the same proposals; the usage says they were replayed (cassette-usage.test.ts)
    const withoutUsage = (p: FixProposalInput): FixProposalInput => ({ ...p, usage: undefined });
    expect(replayed.map(withoutUsage)).toEqual(recorded.map(withoutUsage));
    expect(replayed.map((p) => p.usage)).toEqual(recorded.map((p) => replayedUsage(p.usage as Usage)));
    expect(server.requests).toHaveLength(2);
  });

  it('keeps a call whose arguments are JSON as the object they hold, and any other answer as it came', async () => {
    dir = await mkdtemp(join(tmpdir(), 'suture-cassette-'));
    const other = sampleFixRequest({
      failure: { ...sampleFixRequest().failure, id: 'shop:f2', title: 'other' },
    });
    server.script(
      { kind: 'call', answer: answer('if units >= 10:') },
      // arguments that are a JSON string, not an object: not an answer
      { kind: 'call', answer: 'edits, please' },
    );
    const recorder = teamFixer(server, { cassette: { path: 'tape', mode: 'record' }, answerRetries: 0 }, dir);
    const healed = await recorder.propose(sampleFixRequest(), sampleFixerContext());
    const refused = await failure(recorder.propose(other, sampleFixerContext()));

    const records = await Promise.all(
      (await readdir(join(dir, 'tape'))).map(
        async (f) =>
          JSON.parse(await readFile(join(dir, 'tape', f), 'utf8')) as {
            failure: string;
            reply: { answer: unknown };
          },
      ),
    );
    const byTitle = new Map(records.map((r) => [r.failure, r.reply.answer]));
    expect(byTitle.get(sampleFixRequest().failure.title)).toEqual(answer('if units >= 10:'));
    expect(byTitle.get('other')).toBe('"edits, please"');

    const player = teamFixer(server, { cassette: { path: 'tape', mode: 'replay' }, answerRetries: 0 }, dir);
    expect(await player.propose(sampleFixRequest(), sampleFixerContext())).toEqual({
      ...healed,
      usage: replayedUsage(healed.usage as Usage),
    });
    expect((await failure(player.propose(other, sampleFixerContext()))).message).toBe(refused.message);
    expect(server.requests).toHaveLength(2);
  });

  it('keys by the request and the model: a miss in replay names the request and how to record it', async () => {
    dir = await mkdtemp(join(tmpdir(), 'suture-cassette-'));
    server.script({ kind: 'call', answer: answer('if units >= 10:') });
    await teamFixer(server, { cassette: 'tape', model: 'team-a' }, dir).propose(
      sampleFixRequest(),
      sampleFixerContext(),
    );
    const other = teamFixer(server, { cassette: { path: 'tape', mode: 'replay' }, model: 'team-b' }, dir);
    const error = await failure(other.propose(sampleFixRequest(), sampleFixerContext()));
    expect(error).toBeInstanceOf(FixerError);
    expect(error.message).toMatch(
      /^the cassette .*tape has no answer for this request \(.*tape\/[0-9a-f]{16}\.json: @suture\/llm-team, model "team-b", "AssertionError: assert 0 == 0\.1", attempt 1; it begins "A python test fails/,
    );
    expect(error.message).toMatch(
      /record it with the cassette mode "record" or "auto" \(SUTURE_CASSETTE_MODE=auto\)/,
    );
    expect(server.requests).toHaveLength(1);
  });

  it('in auto mode replays what it has and records the rest', async () => {
    dir = await mkdtemp(join(tmpdir(), 'suture-cassette-'));
    server.script({ kind: 'call', answer: answer('if units >= 10:') }, { kind: 'call', answer: answer('x') });
    const auto = teamFixer(server, { cassette: 'tape' }, dir);
    await auto.propose(sampleFixRequest(), sampleFixerContext());
    await teamFixer(server, { cassette: 'tape' }, dir).propose(sampleFixRequest(), sampleFixerContext());
    expect(server.requests).toHaveLength(1);
    const other = sampleFixRequest({
      failure: { ...sampleFixRequest().failure, id: 'shop:f2', title: 'other' },
    });
    await teamFixer(server, { cassette: 'tape' }, dir).propose(other, sampleFixerContext());
    expect(server.requests).toHaveLength(2);
  });

  it('takes its mode from SUTURE_CASSETTE_MODE over the option, and refuses a mode it does not know', () => {
    expect(resolveCassette('t', '/c', { SUTURE_CASSETTE_MODE: 'replay' })).toEqual({
      dir: '/c/t',
      mode: 'replay',
    });
    expect(resolveCassette({ path: '/abs', mode: 'record' }, '/c', {})).toEqual({
      dir: '/abs',
      mode: 'record',
    });
    expect(() => resolveCassette('t', '/c', { SUTURE_CASSETTE_MODE: 'play' })).toThrow(
      'SUTURE_CASSETTE_MODE=play is not a cassette mode; use record, replay or auto, or unset it',
    );
  });
});
