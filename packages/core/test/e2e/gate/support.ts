import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cp, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterEach } from 'vitest';
import { HealConfigSchema, type HealConfig } from '../../../src/api/contracts/config.js';
import type { GateReport } from '../../../src/api/contracts/report.js';
import { runGate } from '../../../src/engine/gate.js';
import type { GateOptions, GateProject } from '../../../src/engine/types.js';
import type { Analyzer, Fixer, Logger, Reporter, Runner } from '../../../src/api/plugin.js';
import { scriptAnalyzer, scriptRunner } from '../../../src/testing/script-runner.js';

export const FIXTURE = join(import.meta.dirname, 'calc');

export interface Sandbox {
  root: string;
  logs: string[];
  logger: Logger;
}

/** A fresh copy of the calc fixture in its own temp dir, committed to a real git repository. */
export async function sandbox(): Promise<Sandbox> {
  const root = await mkdtemp(join(tmpdir(), 'suture-gate-'));
  await cp(FIXTURE, root, { recursive: true });
  const git = (...args: string[]): void => void execFileSync('git', args, { cwd: root, stdio: 'ignore' });
  git('init', '-q');
  git('-c', 'user.name=t', '-c', 'user.email=t@example.com', 'add', '.');
  git(
    '-c',
    'user.name=t',
    '-c',
    'user.email=t@example.com',
    '-c',
    'core.autocrlf=false',
    'commit',
    '-qm',
    'fixture',
  );
  const logs: string[] = [];
  const logger: Logger = {
    debug: () => undefined,
    info: (m) => logs.push(`info ${m}`),
    warn: (m) => logs.push(`warn ${m}`),
    error: (m) => logs.push(`error ${m}`),
  };
  return { root, logs, logger };
}

/**
 * Makes a fresh sandbox per call, each removed (with the files named by `beside`) after the test
 * that made it. Call it at the top of a test file.
 */
export function sandboxes(): { box: () => Promise<Sandbox>; beside: (file: string) => void } {
  const made: Sandbox[] = [];
  const files: string[] = [];
  afterEach(async () => {
    for (const b of made.splice(0)) await rm(b.root, { recursive: true, force: true });
    for (const f of files.splice(0)) await rm(f, { force: true });
  });
  return {
    box: async () => {
      const b = await sandbox();
      made.push(b);
      return b;
    },
    beside: (file) => void files.push(file),
  };
}

export function heal(overrides: Partial<HealConfig> = {}): HealConfig {
  return HealConfigSchema.parse({ flakyReruns: 1, ...overrides });
}

export function project(
  root: string,
  overrides: Partial<GateProject> & { healConfig?: Partial<HealConfig> } = {},
): GateProject {
  const runner: Runner = overrides.runner ?? scriptRunner();
  const analyzer: Analyzer = overrides.analyzer ?? scriptAnalyzer();
  return {
    name: 'calc',
    root,
    runner,
    analyzer,
    timeoutMs: 60_000,
    heal: heal(overrides.healConfig),
    ...(overrides.name ? { name: overrides.name } : {}),
  };
}

export async function gate(
  box: Sandbox,
  fixers: Fixer[],
  options: Partial<GateOptions> & { healConfig?: Partial<HealConfig> } = {},
): Promise<GateReport> {
  const { healConfig, ...rest } = options;
  return runGate({
    root: box.root,
    outputDir: join(box.root, '.suture', 'runs'),
    mode: 'check',
    projects: [project(box.root, healConfig ? { healConfig } : {})],
    fixers,
    reporters: [] as Reporter[],
    concurrency: 2,
    logger: box.logger,
    ...rest,
  });
}

/** sha256 of every file under root (except .git and .suture), keyed by relative path. */
export async function hashTree(root: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  async function walk(dir: string): Promise<void> {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const abs = join(dir, entry.name);
      const rel = relative(root, abs);
      if (rel === '.git' || rel === '.suture') continue;
      if (entry.isDirectory()) await walk(abs);
      else
        out[rel] = createHash('sha256')
          .update(await readFile(abs))
          .digest('hex');
    }
  }
  await walk(root);
  return out;
}

export const FIX_ADD = {
  verdict: 'edits',
  rationale: 'add must add',
  edits: [{ file: 'src/math.mjs', search: 'return a - b;', replace: 'return a + b;' }],
} as const;
export const WRONG_ADD = {
  verdict: 'edits',
  rationale: 'guess',
  edits: [{ file: 'src/math.mjs', search: 'return a - b;', replace: 'return a * b;' }],
} as const;
