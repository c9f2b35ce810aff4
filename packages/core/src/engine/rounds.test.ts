import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { HealConfigSchema } from '../api/contracts/config.js';
import { API_VERSION, type Logger, type Runner, type TestResultEvent } from '../api/plugin.js';
import type { Redactor } from '../safety/redact.js';
import { scriptAnalyzer, scriptRunner } from '../testing/script-runner.js';
import { Emitter } from './events.js';
import { createRoundRunner } from './rounds.js';

const FIXTURE = join(import.meta.dirname, '../../test/e2e/gate/calc');
const quiet: Logger = { debug() {}, info() {}, warn() {}, error() {} };
const roots: string[] = [];
afterEach(async () => {
  for (const r of roots.splice(0)) await rm(r, { recursive: true, force: true });
});

/** The calc project's rounds: its tests run one file after another, add (which fails) first. */
async function calcRounds(
  mulFails = false,
  runner: Runner = scriptRunner(),
  emitter = new Emitter([], quiet),
  redact?: Redactor,
): Promise<ReturnType<typeof createRoundRunner>> {
  const root = await mkdtemp(join(tmpdir(), 'suture-rounds-'));
  roots.push(root);
  await cp(FIXTURE, root, { recursive: true });
  if (mulFails)
    await writeFile(
      join(root, 'src', 'math.mjs'),
      'export function add(a, b) {\n  return a - b;\n}\n\nexport function mul(a, b) {\n  return a + b;\n}\n',
    );
  const project = {
    name: 'calc',
    root,
    runner,
    analyzer: scriptAnalyzer(),
    timeoutMs: 60_000,
    heal: HealConfigSchema.parse({}),
  };
  return createRoundRunner(
    project,
    join(root, '.suture', 'run'),
    emitter,
    quiet,
    new AbortController().signal,
    redact,
  );
}

describe('a round', () => {
  it('says when the first failing result streams, once, while the rest of the suite still runs', async () => {
    const rounds = await calcRounds(true);
    let ended = false;
    const calls: boolean[] = [];
    const result = await rounds.run('initial', undefined, { onFailing: () => calls.push(ended) });
    ended = true;
    expect(result.tests.map((t) => [t.id, t.status])).toEqual([
      ['tests/add.test.mjs', 'failed'],
      ['tests/greet.test.mjs', 'passed'],
      ['tests/mul.test.mjs', 'failed'],
    ]);
    // called during the run, not after it, and not again for a later failure
    expect(calls).toEqual([false]);
  });

  it('says nothing for a run whose results all pass', async () => {
    const rounds = await calcRounds();
    const calls: string[] = [];
    const result = await rounds.run('retry', ['tests/greet.test.mjs', 'tests/mul.test.mjs'], {
      onFailing: () => calls.push('failing'),
    });
    expect(result.status).toBe('passed');
    expect(calls).toEqual([]);
  });

  it("takes a runner's word that a test failed before its result is ready, once", async () => {
    const seen: string[] = [];
    const early: Runner = {
      name: 'early',
      apiVersion: API_VERSION,
      language: 'javascript',
      supportsSelection: false,
      async run(ctx) {
        // a runner that still has to read a listing before it can report which test failed
        ctx.onFailing?.();
        seen.push('runner: a test failed');
        ctx.onFailing?.();
        const test = { id: 'tests/add.test.mjs', status: 'failed' as const };
        ctx.onTestResult?.(test);
        seen.push('runner: its result');
        return { status: 'failed', tests: [test], exitCode: 1, command: 'early', durationMs: 1 };
      },
    };
    const rounds = await calcRounds(false, early);
    const result = await rounds.run('initial', undefined, { onFailing: () => seen.push('engine: failing') });
    expect(result.status).toBe('failed');
    expect(seen).toEqual(['engine: failing', 'runner: a test failed', 'runner: its result']);
  });

  /** A runner that streams a broken result between two good ones, and returns all three. */
  const streaming: Runner = {
    name: 'streaming',
    apiVersion: API_VERSION,
    language: 'javascript',
    supportsSelection: false,
    async run(ctx) {
      const tests = [
        { id: 'tests/add.test.mjs', status: 'passed' as const, message: 'token s3cr3t-value' },
        { id: '', status: 'passed' as const },
        { id: 'tests/mul.test.mjs', status: 'passed' as const },
      ];
      for (const t of tests) ctx.onTestResult?.(t);
      return { status: 'passed', tests, exitCode: 0, command: 'streaming', durationMs: 1 };
    },
  };
  const masking: Redactor = (text) => text.replaceAll('s3cr3t-value', '[REDACTED]');

  it('hands a live reporter only the streamed results that are valid, redacted', async () => {
    const live: TestResultEvent[] = [];
    const emitter = new Emitter(
      [{ name: 'live', apiVersion: API_VERSION, onTestResult: (e) => void live.push(e) }],
      quiet,
      masking,
    );
    const rounds = await calcRounds(false, streaming, emitter, masking);
    const result = await rounds.run('initial');
    await emitter.end({} as Parameters<Emitter['end']>[0], { runDir: '', root: '' });
    expect(live.map((e) => [e.test.id, e.test.message])).toEqual([
      ['tests/add.test.mjs', 'token [REDACTED]'],
      ['tests/mul.test.mjs', undefined],
    ]);
    // the whole result is still checked at the end: the broken one makes it an error
    expect(result.status).toBe('error');
    expect(rounds.pluginErrors[0]?.message).toMatch(/invalid RunResult: tests\.1\.id/);
  });

  it('redacts each valid streamed result as it comes when no reporter shows them', async () => {
    const seen: string[] = [];
    const rounds = await calcRounds(false, streaming, new Emitter([], quiet), (text) => {
      seen.push(text);
      return masking(text);
    });
    await rounds.run('initial');
    expect(seen).toEqual([
      'tests/add.test.mjs',
      'passed',
      'token s3cr3t-value',
      'tests/mul.test.mjs',
      'passed',
    ]);
  });
});
