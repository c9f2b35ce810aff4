import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createGateOptions, loadConfig, runGate } from '@suture/core/internal';
import { type GateMode, type GateReport } from '@suture/core';
import { silentLogger, snapshotTree } from '@suture/core/testing';

const here = fileURLToPath(new URL('.', import.meta.url));
/** Copies live under the repository, so that `jest`, the runner and this fixer resolve by name from them. */
const TMP = fileURLToPath(new URL('../../../../.tmp/', import.meta.url));
const temps: string[] = [];

/** The test that fails in the shop fixture: the discount starts above 100 instead of at 100. */
export const FAILING_TEST = '__tests__/cart.test.js::cart total applies the discount from 100';
export const RIGHT_FIX = { file: 'src/pricing.js', search: 'amount > 100', replace: 'amount >= 100' };
export const WRONG_FIX = { file: 'src/pricing.js', search: 'amount * 0.1', replace: 'amount * 0.2' };

export interface GateRun {
  root: string;
  report: GateReport;
  /** The report.json the json reporter wrote, parsed. */
  written: GateReport;
  /** Every file of the run folder, by name. */
  runFiles: Map<string, string>;
  /** The tree before and after the run (run folders left out). */
  before: Map<string, string>;
  after: Map<string, string>;
}

export interface GateSetup {
  /** Options of the `openai` fixer entry. */
  fixer: Record<string, unknown>;
  heal?: Record<string, unknown>;
  mode?: GateMode;
  /** The run's `budget` (maxCalls, maxCostUsd, maxWallMs). */
  budget?: Record<string, unknown>;
  /** Gate several copies of the shop, each a project in its own folder (one failure group each). */
  copies?: string[];
}

/**
 * Copies the shop fixture, writes a suture.config.json that names the fixer by its alias
 * `openai`, and runs the real gate on it, as `suture run` does.
 */
export async function gate(setup: GateSetup): Promise<GateRun> {
  await mkdir(TMP, { recursive: true });
  const root = await mkdtemp(join(TMP, 'openai-shop-'));
  temps.push(root);
  const copies = setup.copies ?? [];
  if (copies.length === 0) await cp(join(here, 'shop'), root, { recursive: true });
  for (const name of copies) await cp(join(here, 'shop'), join(root, name), { recursive: true });
  const config = {
    projects: copies.length
      ? copies.map((name) => ({ name, root: name, runner: 'jest' }))
      : [{ name: 'shop', root: '.', runner: 'jest' }],
    fixers: [['openai', setup.fixer]],
    heal: { flakyReruns: 0, maxAttempts: 1, ...setup.heal },
    reporters: ['json', 'bugs', 'patch'],
    ...(setup.budget ? { budget: setup.budget } : {}),
    ...(copies.length ? { concurrency: 1 } : {}),
  };
  await writeFile(join(root, 'suture.config.json'), `${JSON.stringify(config, null, 2)}\n`);
  const ignore = ['.suture/**'];
  const before = await snapshotTree(root, ignore);
  const loaded = await loadConfig({ cwd: root });
  const options = await createGateOptions(loaded, {
    mode: setup.mode ?? 'check',
    logger: silentLogger,
    output: { stream: { write: () => true }, env: {} },
  });
  const report = await runGate(options);
  const after = await snapshotTree(root, ignore);
  const runFiles = new Map<string, string>();
  for (const entry of await readdir(report.runDir!, { withFileTypes: true })) {
    if (entry.isFile()) runFiles.set(entry.name, await readFile(join(report.runDir!, entry.name), 'utf8'));
  }
  return {
    root,
    report,
    written: JSON.parse(runFiles.get('report.json')!) as GateReport,
    runFiles,
    before,
    after,
  };
}

export async function cleanup(): Promise<void> {
  await Promise.all(temps.splice(0).map((d) => rm(d, { recursive: true, force: true })));
}
