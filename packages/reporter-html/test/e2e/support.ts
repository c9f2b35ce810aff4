import { execFileSync } from 'node:child_process';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HealConfigSchema, type FixRequest, type GateReport, type Logger, type Reporter } from '@suture/core';
import { createBuiltinReporter, runGate } from '@suture/core/internal';
import { scriptedFixer, type ScriptedFixer } from '@suture/core/testing';
import pytest from '@suture/runner-pytest';

const here = fileURLToPath(new URL('.', import.meta.url));
const temps: string[] = [];

export const quiet: Logger = { debug() {}, info() {}, warn() {}, error() {} };

export const ADD = 'tests/test_ops.py::test_add';
export const DISCOUNT = 'tests/test_ops.py::test_discount_over_100';
export const FLAKY = 'tests/test_env.py::test_flaky_once';

/** A fresh git repository holding the shop project under `app/`. */
export async function shopRepo(): Promise<{ repo: string; root: string }> {
  const repo = await mkdtemp(join(tmpdir(), 'suture-html-'));
  temps.push(repo);
  const root = join(repo, 'app');
  await cp(join(here, 'shop'), root, { recursive: true });
  const git = (...args: string[]): void => void execFileSync('git', args, { cwd: repo, stdio: 'ignore' });
  git('init', '-q');
  git('-c', 'user.email=t@example.com', '-c', 'user.name=t', 'add', '-A');
  git('-c', 'user.email=t@example.com', '-c', 'user.name=t', 'commit', '-qm', 'shop');
  return { repo, root };
}

export async function cleanup(): Promise<void> {
  await Promise.all(temps.splice(0).map((d) => rm(d, { recursive: true, force: true })));
}

/**
 * The fixer of the shop: `add` gets a wrong patch then the right one (failed validation, then
 * healed), `discount` is a product bug. `beforeAnswer` runs before each answer: the live test
 * holds the first attempt there until the page shows it running.
 */
export function shopFixer(
  beforeAnswer: (request: FixRequest) => Promise<void> = async () => {},
): ScriptedFixer {
  const addTries = [
    {
      verdict: 'edits',
      rationale: 'swap the operands',
      edits: [{ file: 'calc/ops.py', search: 'return a - b', replace: 'return b - a' }],
    },
    {
      verdict: 'edits',
      rationale: 'add, do not subtract',
      edits: [{ file: 'calc/ops.py', search: 'return a - b', replace: 'return a + b' }],
    },
  ];
  let adds = 0;
  return scriptedFixer(
    Array.from({ length: 10 }, () => async (request: FixRequest) => {
      await beforeAnswer(request);
      if (request.failure.tests.includes(ADD)) return (addTries[adds++] ?? addTries[1]!) as never;
      if (request.failure.tests.includes(DISCOUNT))
        return {
          verdict: 'product-bug',
          rationale: 'the docstring says 10% off; the code takes 5%',
          bug: {
            summary: 'discount takes 5% off instead of 10%',
            expected: '180',
            actual: '190.0',
            evidence: 'assert discount(200) == 180',
            file: 'calc/ops.py',
            symbol: 'discount',
          },
        } as never;
      return { verdict: 'unfixable', diagnosis: 'not scripted' } as never;
    }),
    'shop-fixer',
  );
}

export interface ShopRun {
  repo: string;
  root: string;
  fixer: ScriptedFixer;
  /** Reporters after json and junit (the html reporter, the dashboard's feed). */
  reporters: Reporter[];
  env?: Record<string, string>;
  signal?: AbortSignal;
}

/** The real gate on the shop: real pytest, the scripted fixer, json and junit written as in a run. */
export function gateShop(run: ShopRun): Promise<GateReport> {
  const builtin = (name: string): Reporter =>
    createBuiltinReporter(name, {}, { stream: { write: () => true }, env: {} })!;
  return runGate({
    root: run.repo,
    outputDir: join(run.repo, '.suture', 'runs'),
    mode: 'check',
    projects: [
      {
        name: 'shop',
        root: run.root,
        runner: pytest({ env: { SHOP_FLAKY_MARKER: join(run.repo, 'flaky-marker'), ...run.env } }),
        analyzer: pytest().analyzer!(),
        timeoutMs: 120_000,
        heal: HealConfigSchema.parse({ maxAttempts: 3 }),
      },
    ],
    fixers: [run.fixer],
    reporters: [builtin('json'), builtin('junit'), ...run.reporters],
    concurrency: 1,
    logger: quiet,
    ...(run.signal ? { signal: run.signal } : {}),
  });
}
