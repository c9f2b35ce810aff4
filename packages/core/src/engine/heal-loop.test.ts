import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { HealConfigSchema, type HealConfig } from '../api/contracts/config.js';
import type { Failure } from '../api/contracts/failure.js';
import { AttemptVerdictSchema, type Attempt, type AttemptVerdict } from '../api/contracts/report.js';
import type { Logger } from '../api/plugin.js';
import { Journal } from '../safety/journal.js';
import { scriptAnalyzer, scriptRunner } from '../testing/script-runner.js';
import { scriptedFixer, type ScriptedFixer, type ScriptedStep } from '../testing/scripted-fixer.js';
import { Emitter } from './events.js';
import { healFailure, type HealResult } from './heal-loop.js';
import { LADDER } from './ladder.js';
import { RefusalMemory } from './refusals.js';
import { createRoundRunner } from './rounds.js';
import { applyScopePolicy } from './scope-policy.js';
import type { GateProject } from './types.js';

const FIXTURE = join(import.meta.dirname, '../../test/e2e/gate/calc');
const quiet: Logger = { debug() {}, info() {}, warn() {}, error() {} };

const FIX = {
  verdict: 'edits',
  rationale: 'add must add',
  edits: [{ file: 'src/math.mjs', search: 'return a - b;', replace: 'return a + b;' }],
} as const;
const WRONG = {
  verdict: 'edits',
  rationale: 'guess',
  edits: [{ file: 'src/math.mjs', search: 'return a - b;', replace: 'return a * b;' }],
} as const;
const OUTSIDE = { verdict: 'edits', rationale: 'x', edits: [{ file: 'README.md', content: 'x\n' }] } as const;
const UNFIXABLE = { verdict: 'unfixable', diagnosis: 'cannot tell' } as const;
const BUG = {
  verdict: 'product-bug',
  rationale: 'spec',
  bug: { summary: 'add subtracts', expected: '5', actual: '-1', evidence: 'add(2, 3) is -1' },
} as const;

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

interface Loop {
  heal(fixers: ScriptedFixer[]): Promise<HealResult>;
  root: string;
}

/** The add failure of a fresh copy of the calc project, ready for healFailure with a real runner and journal. */
async function loop(healConfig: Partial<HealConfig>): Promise<Loop> {
  const refusals = new RefusalMemory();
  const root = await mkdtemp(join(tmpdir(), 'suture-ladder-'));
  await cp(FIXTURE, root, { recursive: true });
  const journal = await Journal.create(root, 'ladder');
  cleanups.push(async () => {
    await journal.restore();
    await journal.close();
    await rm(root, { recursive: true, force: true });
  });
  const project: GateProject = {
    name: 'calc',
    root,
    runner: scriptRunner(),
    analyzer: scriptAnalyzer(),
    timeoutMs: 60_000,
    heal: HealConfigSchema.parse({ flakyReruns: 0, ...healConfig }),
  };
  const emitter = new Emitter([], quiet);
  const signal = new AbortController().signal;
  const rounds = createRoundRunner(project, join(root, '.suture', 'run'), emitter, quiet, signal);
  const { failures } = await rounds.analyze(await rounds.run('initial'));
  const failure: Failure = failures.find((f) => f.tests.includes('tests/add.test.mjs'))!;
  const rawScope = await project.analyzer.scope(failure, rounds.info);
  const scope = applyScopePolicy(rawScope, project.heal, project.analyzer);
  return {
    root,
    heal: (fixers) =>
      healFailure(
        { project, repoRoot: root, journal, fixers, rounds, emitter, logger: quiet, signal, refusals },
        failure,
        rawScope,
        scope,
      ),
  };
}

/**
 * For each verdict: the answers of fixer A whose last one ends with that verdict, the attempts
 * that come before it, and what the run did before this failure group (`prime`).
 */
function produce(verdict: AttemptVerdict): {
  steps: ScriptedStep[];
  before: number;
  prime?: (l: Loop) => Promise<unknown>;
} {
  switch (verdict) {
    case 'healed':
      return { steps: [FIX], before: 0 };
    case 'failed-validation':
      return { steps: [WRONG], before: 0 };
    case 'refused':
      return { steps: [OUTSIDE], before: 0 };
    case 'repeated-patch':
      return { steps: [WRONG, WRONG], before: 1 };
    case 'repeated-request':
      // The same failure group met earlier in the run, where A's answer was refused.
      return { steps: [FIX], before: 0, prime: (l) => l.heal([scriptedFixer([UNFIXABLE], 'A')]) };
    case 'product-bug':
      return { steps: [BUG], before: 0 };
    case 'unfixable':
      return { steps: [UNFIXABLE], before: 0 };
    case 'fixer-error':
      return { steps: [new Error('model overloaded')], before: 0 };
  }
}

const verdicts = AttemptVerdictSchema.options;

describe('the heal loop follows the ladder table', () => {
  it.each(verdicts)('after %s, asks whom the table says next', async (verdict) => {
    const { steps, before, prime } = produce(verdict);
    const a = scriptedFixer([...steps, FIX, FIX], 'A');
    const b = scriptedFixer([FIX], 'B');
    const l = await loop({ maxAttempts: 5 });
    await prime?.(l);
    const { report } = await l.heal([a, b]);
    const at: Attempt = report.attempts[before]!;
    expect(at.verdict).toBe(verdict);
    const next = report.attempts[before + 1];
    switch (LADDER[verdict].then) {
      case 'stop':
        expect(next).toBeUndefined();
        expect(report.outcome).toBe(verdict);
        break;
      case 'retry':
        expect(next?.fixer).toBe('A');
        break;
      case 'next-fixer':
      case 'next-fixer-or-retry':
        expect(next?.fixer).toBe('B');
        break;
    }
  });

  it.each(verdicts.filter((v) => LADDER[v].then !== 'stop'))(
    'after %s, spends an attempt only when the table says so',
    async (verdict) => {
      const { steps, before, prime } = produce(verdict);
      const a = scriptedFixer([...steps, FIX], 'A');
      const b = scriptedFixer([FIX], 'B');
      // Every attempt before it cost one (a failed validation): one more is all the budget has.
      const l = await loop({ maxAttempts: before + 1 });
      await prime?.(l);
      const { report } = await l.heal([a, b]);
      expect(report.attempts[before]!.verdict).toBe(verdict);
      expect(report.attempts.length).toBe(LADDER[verdict].costsAttempt ? before + 1 : before + 2);
    },
  );

  it('retries the last fixer after a fixer error, and moves past one that gave up', async () => {
    const flaky = scriptedFixer([new Error('connection reset'), FIX], 'A');
    const retried = await (await loop({ maxAttempts: 3 })).heal([flaky]);
    expect(retried.report.attempts.map((a) => [a.fixer, a.verdict])).toEqual([
      ['A', 'fixer-error'],
      ['A', 'healed'],
    ]);
    expect(retried.pluginErrors).toMatchObject([
      { plugin: 'A', kind: 'fixer', phase: 'propose', message: 'connection reset' },
    ]);
    const gaveUp = scriptedFixer([UNFIXABLE, FIX], 'A');
    const ended = await (await loop({ maxAttempts: 3 })).heal([gaveUp]);
    expect(ended.report).toMatchObject({ outcome: 'unfixable', reason: 'A: cannot tell' });
    expect(gaveUp.requests).toHaveLength(1);
  });

  it('does not send a request the same fixer already refused, and says so in the attempt', async () => {
    const l = await loop({});
    const first = scriptedFixer([UNFIXABLE], 'A');
    await l.heal([first]);
    const again = scriptedFixer([FIX], 'A');
    const other = scriptedFixer([FIX], 'B');
    const { report } = await l.heal([again, other]);
    expect(again.requests).toHaveLength(0);
    expect(other.requests).toHaveLength(1);
    expect(report.attempts.map((a) => a.verdict)).toEqual(['repeated-request', 'healed']);
    expect(report.attempts[0]!.reason).toMatch(
      /^A already answered this request \(project calc, "tests\/add\.test\.mjs: .*", attempt 1: unfixable: cannot tell\); not sent again$/,
    );
    // what B was told leaves the request that was not sent out of its history
    expect(other.requests[0]!.history).toEqual([]);
    expect(await readFile(join(l.root, 'src/math.mjs'), 'utf8')).toContain('return a + b;');
  });

  it('asks another fixer of the ladder the request one fixer refused', async () => {
    const l = await loop({});
    await l.heal([scriptedFixer([UNFIXABLE], 'A')]);
    // B holds another place in the ladder: a request A refused is still new to it
    const b = scriptedFixer([FIX], 'B');
    await l.heal([b]);
    expect(b.requests).toHaveLength(1);
  });
});
