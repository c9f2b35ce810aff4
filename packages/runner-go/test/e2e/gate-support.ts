import { execFileSync } from 'node:child_process';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  HealConfigSchema,
  type Fixer,
  type GateMode,
  type GateReport,
  type HealConfig,
  type Logger,
} from '@suture/core';
import { runGate } from '@suture/core/internal';
import go, { type GoOptions } from '../../src/index.js';

export const here = fileURLToPath(new URL('.', import.meta.url));
const temps: string[] = [];

// the fixtures use the standard library only: nothing may reach for a module proxy
process.env.GOTOOLCHAIN = 'local';
process.env.GOPROXY = 'off';

export const quiet: Logger = { debug() {}, info() {}, warn() {}, error() {} };

/** A fresh git repository holding a copy of a fixture module under `app/`. */
export async function repoWith(fixture: string): Promise<{ repo: string; root: string }> {
  const repo = await mkdtemp(join(tmpdir(), `suture-go-gate-${fixture}-`));
  temps.push(repo);
  const root = join(repo, 'app');
  await cp(join(here, fixture), root, { recursive: true });
  const git = (...args: string[]): void => void execFileSync('git', args, { cwd: repo, stdio: 'ignore' });
  git('init', '-q');
  git('-c', 'user.email=t@example.com', '-c', 'user.name=t', 'add', '-A');
  git('-c', 'user.email=t@example.com', '-c', 'user.name=t', 'commit', '-qm', 'fixture');
  return { repo, root };
}

export async function cleanup(): Promise<void> {
  await Promise.all(temps.splice(0).map((d) => rm(d, { recursive: true, force: true })));
}

export interface GateRun {
  repo: string;
  root: string;
  mode?: GateMode;
  fixers: Fixer[];
  heal?: Partial<HealConfig>;
  runner?: GoOptions;
  sandbox?: 'off' | 'auto';
}

/** The gate on the fixture with the Go runner and its analyzer, as `suture run` builds it. */
export function gate(run: GateRun): Promise<GateReport> {
  return runGate({
    root: run.repo,
    outputDir: join(run.repo, '.suture', 'runs'),
    mode: run.mode ?? 'check',
    projects: [
      {
        name: 'app',
        root: run.root,
        runner: go(run.runner ?? {}),
        analyzer: go().analyzer!(),
        timeoutMs: 120_000,
        heal: HealConfigSchema.parse({ ...run.heal }),
      },
    ],
    fixers: run.fixers,
    reporters: [],
    concurrency: 1,
    logger: quiet,
    ...(run.sandbox ? { sandbox: run.sandbox } : {}),
  });
}
