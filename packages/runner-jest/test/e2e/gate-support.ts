import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { HealConfigSchema, type Fixer, type GateMode, type GateReport, type HealConfig } from '@suture/core';
import { runGate } from '@suture/core/internal';
import { silentLogger } from '@suture/core/testing';
import jest, { type JestOptions } from '../../src/index.js';

export interface JestGate {
  root: string;
  mode?: GateMode;
  fixers: Fixer[];
  heal?: Partial<HealConfig>;
  /** The runner's options (default none). */
  options?: JestOptions;
}

/** The gate over one real Jest project, the project's folder as the repository root. */
export function gate(run: JestGate): Promise<GateReport> {
  return runGate({
    root: run.root,
    outputDir: join(run.root, '.suture/runs'),
    mode: run.mode ?? 'check',
    projects: [
      {
        name: 'web',
        root: run.root,
        runner: jest(run.options ?? {}),
        analyzer: jest().analyzer!(),
        timeoutMs: 120_000,
        heal: HealConfigSchema.parse({ flakyReruns: 0, ...run.heal }),
      },
    ],
    fixers: run.fixers,
    reporters: [],
    concurrency: 1,
    logger: silentLogger,
  });
}

const git = (dir: string, ...args: string[]): string =>
  execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], {
    cwd: dir,
    encoding: 'utf8',
  });

/** Makes `dir` a git repository with everything in it committed. */
export function commitAll(dir: string): void {
  git(dir, 'init', '-q');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-qm', 'fixture');
}

/** `git status --porcelain` with untracked files listed one by one. */
export function gitStatus(dir: string): string {
  return git(dir, 'status', '--porcelain', '--untracked-files=all');
}
