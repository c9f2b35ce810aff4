import { cp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { FixProposalInput, Usage } from '../../../src/api/contracts/fix.js';
import type { GateReport } from '../../../src/api/contracts/report.js';
import { FixerUnavailableError } from '../../../src/api/fixer-unavailable.js';
import { API_VERSION, type Fixer, type FixerContext } from '../../../src/api/plugin.js';
import { scriptedFixer } from '../../../src/testing/scripted-fixer.js';
import type { GateOptions } from '../../../src/engine/types.js';
import { FIXTURE, FIX_ADD, gate, project, sandbox, WRONG_ADD, type Sandbox } from './support.js';

const boxes: Sandbox[] = [];
afterEach(async () => {
  for (const b of boxes.splice(0)) await rm(b.root, { recursive: true, force: true });
});

/** Two copies of the calc project, each with its failing add test: two failure groups in one run. */
async function twoProjects(): Promise<{ box: Sandbox; projects: GateOptions['projects'] }> {
  const box = await sandbox();
  boxes.push(box);
  await cp(FIXTURE, join(box.root, 'one'), { recursive: true });
  await cp(FIXTURE, join(box.root, 'two'), { recursive: true });
  const options = { healConfig: { flakyReruns: 0, regression: false, maxAttempts: 3 } };
  return {
    box,
    projects: [
      project(join(box.root, 'one'), { ...options, name: 'one' }),
      project(join(box.root, 'two'), { ...options, name: 'two' }),
    ],
  };
}

const usage = (calls: number, costUsd: number): Usage => ({
  model: 'm',
  inputTokens: 100,
  outputTokens: 10,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
  costUsd,
  calls,
});

/** Wrong patches, each different, so none is refused as a repeat. */
const WRONG = ['a * b', 'a / b', 'a ** b', 'a % b', 'a - b - 1'].map((expr) => ({
  ...WRONG_ADD,
  edits: [{ ...WRONG_ADD.edits[0], replace: `return ${expr};` }],
}));

/** A paid fixer that keeps to the budget as the LLM base does: it asks before each call. */
function paidFixer(answers: readonly FixProposalInput[], cost: number): Fixer & { calls: number } {
  const fixer = {
    name: 'paid',
    apiVersion: API_VERSION,
    calls: 0,
    async propose(_request: unknown, ctx: FixerContext): Promise<FixProposalInput> {
      const refusal = ctx.spend?.refusal();
      if (refusal) throw new FixerUnavailableError(refusal);
      const answer = answers[fixer.calls++ % answers.length]!;
      return { ...answer, usage: usage(1, cost) } as FixProposalInput;
    },
  };
  return fixer;
}

const attempts = (report: GateReport): Array<[string, string, string, string | undefined]> =>
  report.projects.flatMap((p) =>
    p.failures.flatMap((f) =>
      f.attempts.map(
        (a) => [p.name, a.fixer, a.verdict, a.reason] as [string, string, string, string | undefined],
      ),
    ),
  );

describe('the run-level budget', () => {
  it('stops paid calls at budget.maxCalls across projects, reports it once and lets free fixers on', async () => {
    const { box, projects } = await twoProjects();
    const paid = paidFixer(WRONG, 0.01);
    const free = scriptedFixer([FIX_ADD, FIX_ADD], 'free');
    const report = await gate(box, [paid, free], { projects, concurrency: 1, budget: { maxCalls: 2 } });

    expect(paid.calls).toBe(2);
    const rows = attempts(report);
    expect(rows.filter(([, fixer]) => fixer === 'paid').map(([p, , v]) => [p, v])).toEqual([
      ['one', 'failed-validation'],
      ['one', 'failed-validation'],
      ['one', 'fixer-error'],
    ]);
    expect(rows.find(([, , v]) => v === 'fixer-error')![3]).toContain(
      "the run's budget of 2 LLM call(s) is spent (budget.maxCalls; $0.0200 spent); raise budget.maxCalls",
    );
    // the second project never asks the paid fixer: it is out for the run
    expect(rows.filter(([p]) => p === 'two')).toEqual([['two', 'free', 'healed', undefined]]);
    expect(report.totals.llmCalls).toBe(2);
    // the plugin did not break: a spent budget is not a plugin error
    expect(report.pluginErrors ?? []).toEqual([]);
  });

  it('stops at budget.maxCostUsd', async () => {
    const { box, projects } = await twoProjects();
    const paid = paidFixer(WRONG, 0.3);
    const report = await gate(box, [paid], { projects, concurrency: 1, budget: { maxCostUsd: 0.5 } });
    expect(paid.calls).toBe(2);
    const reasons = attempts(report).map(([p, , v, r]) => [p, v, r?.split(';')[0]]);
    expect(reasons).toEqual([
      ['one', 'failed-validation', expect.any(String)],
      ['one', 'failed-validation', expect.any(String)],
      ['one', 'fixer-error', "the run's budget of $0.5000 is spent (budget.maxCostUsd"],
    ]);
    const two = report.projects[1]!.failures[0]!;
    expect(two.attempts).toEqual([]);
    expect(two.outcome).toBe('exhausted');
    expect(two.reason).toMatch(
      /^not asked: every fixer is out for this run\npaid: the run's budget of \$0\.5000 is spent/,
    );
  });
});

describe('a fixer out for the run', () => {
  it('is skipped for every later failure group once it throws FixerUnavailableError', async () => {
    const { box, projects } = await twoProjects();
    let asked = 0;
    const down: Fixer = {
      name: 'down',
      apiVersion: API_VERSION,
      async propose() {
        asked++;
        throw new FixerUnavailableError(
          'http://127.0.0.1:9 failed 2 calls in a row; skipped for the rest of the run',
        );
      },
    };
    const report = await gate(box, [down, scriptedFixer([FIX_ADD, FIX_ADD], 'next')], {
      projects,
      concurrency: 1,
    });
    expect(asked).toBe(1);
    expect(attempts(report).map(([p, f, v]) => [p, f, v])).toEqual([
      ['one', 'down', 'fixer-error'],
      ['one', 'next', 'healed'],
      ['two', 'next', 'healed'],
    ]);
  });
});

describe('a proposal identical to one refused', () => {
  it('is not tried again: the next fixer is asked, and it costs no attempt', async () => {
    const { box, projects } = await twoProjects();
    const outside = {
      verdict: 'edits',
      rationale: 'x',
      edits: [{ file: 'README.md', content: 'x\n' }],
    } as const;
    const a = scriptedFixer([outside, outside, FIX_ADD], 'A');
    const b = scriptedFixer([FIX_ADD], 'B');
    const report = await gate(box, [a, b], { projects: [projects[0]!] });
    expect(attempts(report).map(([, f, v, r]) => [f, v, r?.split(':')[0]])).toEqual([
      ['A', 'refused', expect.any(String)],
      ['A', 'repeated-patch', 'the same patch as attempt 1, which was refused'],
      ['B', 'healed', undefined],
    ]);
  });
});
