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
  type RunResultInput,
  type Runner,
} from '@suture/core';
import { runGate } from '@suture/core/internal';
import { silentLogger } from '@suture/core/testing';
import cargo, { type CargoOptions } from '../../src/index.js';

const temps: string[] = [];

export interface CargoGate {
  root: string;
  mode?: GateMode;
  fixers: Fixer[];
  heal?: Partial<HealConfig>;
  options?: CargoOptions;
}

/** The runner with every run's result kept, in order: the initial run, validations, the regression run. */
export function recording(runner: Runner): { runner: Runner; runs: RunResultInput[] } {
  const runs: RunResultInput[] = [];
  return {
    runs,
    runner: {
      ...runner,
      run: async (ctx) => {
        const result = await runner.run(ctx);
        runs.push(result);
        return result;
      },
    },
  };
}

/** The gate over one real cargo project, the project's folder as the repository root. */
export async function gate(run: CargoGate): Promise<{ report: GateReport; runs: RunResultInput[] }> {
  const { runner, runs } = recording(cargo(run.options ?? {}));
  const report = await runGate({
    root: run.root,
    outputDir: join(run.root, '.suture/runs'),
    mode: run.mode ?? 'check',
    projects: [
      {
        name: 'rust',
        root: run.root,
        runner,
        analyzer: runner.analyzer!(),
        timeoutMs: 180_000,
        heal: HealConfigSchema.parse({ flakyReruns: 0, ...run.heal }),
      },
    ],
    fixers: run.fixers,
    reporters: [],
    concurrency: 1,
    logger: silentLogger,
  });
  return { report, runs };
}

const git = (dir: string, ...args: string[]): string =>
  execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], {
    cwd: dir,
    encoding: 'utf8',
  });

/**
 * A fixture built once: copied to a temp folder, built with `cargo test --no-run`, committed (its
 * `target/` ignored). `copy()` gives each test its own copy with the warm build (cargo's
 * fingerprints of path packages survive a move), so a file builds its fixture once.
 */
export async function built(name: string): Promise<{ copy: () => Promise<string> }> {
  const template = await mkdtemp(join(tmpdir(), `suture-cargo-${name}-`));
  temps.push(template);
  await cp(fileURLToPath(new URL(`./${name}`, import.meta.url)), template, { recursive: true });
  execFileSync('cargo', ['test', '--no-run', '--offline', '--quiet'], { cwd: template, stdio: 'ignore' });
  return {
    async copy() {
      const dir = await mkdtemp(join(tmpdir(), `suture-cargo-${name}-run-`));
      temps.push(dir);
      execFileSync('cp', ['-a', `${template}/.`, dir]);
      execFileSync('sh', ['-c', 'printf "target/\\n.suture/\\n" > .gitignore'], { cwd: dir });
      git(dir, 'init', '-q');
      git(dir, 'add', '-A');
      git(dir, 'commit', '-qm', 'fixture');
      return dir;
    },
  };
}

/** `git status --porcelain` with untracked files listed one by one. */
export function gitStatus(dir: string): string {
  return git(dir, 'status', '--porcelain', '--untracked-files=all');
}

export async function cleanup(): Promise<void> {
  await Promise.all(temps.splice(0).map((d) => rm(d, { recursive: true, force: true })));
}
