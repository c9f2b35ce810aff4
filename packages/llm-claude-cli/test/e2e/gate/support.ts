import { execFileSync } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createGateOptions, loadConfig, runGate } from '@suture/core/internal';
import { type ConfigInput, type GateReport } from '@suture/core';
import { silentLogger, snapshotTree } from '@suture/core/testing';

const REPO = fileURLToPath(new URL('../../../../../', import.meta.url));
const FIXTURE = fileURLToPath(new URL('./repo', import.meta.url));
const IGNORED = ['.git/**', '.suture/**', '**/__pycache__/**', '**/.pytest_cache/**'];
const dirs: string[] = [];

export interface Sandbox {
  dir: string;
  before: Map<string, string>;
}

/**
 * A committed git copy of the fixture with `config` as its suture.config.json. It lives under the
 * monorepo's .tmp folder, so the config's plugin names resolve as they would in a user's repo:
 * `claude` and `pytest` through node_modules, `./local-fixer.mjs` next to the config.
 */
export async function sandbox(config: ConfigInput): Promise<Sandbox> {
  await mkdir(join(REPO, '.tmp'), { recursive: true });
  const dir = await mkdtemp(join(REPO, '.tmp', 'claude-gate-'));
  dirs.push(dir);
  await cp(FIXTURE, dir, { recursive: true });
  await writeFile(join(dir, 'suture.config.json'), `${JSON.stringify(config, null, 2)}\n`);
  const git = (...args: string[]): void =>
    void execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], {
      cwd: dir,
      stdio: 'ignore',
    });
  git('init', '-q');
  git('add', '-A');
  git('commit', '-qm', 'fixture');
  return { dir, before: await snapshotTree(dir, IGNORED) };
}

export interface GateRun {
  report: GateReport;
  /** The run folder's report.json, as written by the json reporter. */
  json: GateReport;
  runDir: string;
}

/** Loads the sandbox's config as `suture run` does and gates it in check mode. */
export async function gate(box: Sandbox): Promise<GateRun> {
  const loaded = await loadConfig({ cwd: box.dir });
  const options = await createGateOptions(loaded, {
    mode: 'check',
    logger: silentLogger,
    output: { stream: { write: () => true }, env: {} },
  });
  const report = await runGate(options);
  const runDir = report.runDir!;
  return {
    report,
    runDir,
    json: JSON.parse(await readFile(join(runDir, 'report.json'), 'utf8')) as GateReport,
  };
}

/** The tree as it was before the gate (check mode must leave it byte-identical), and git agrees. */
export async function untouched(box: Sandbox): Promise<boolean> {
  const now = await snapshotTree(box.dir, IGNORED);
  const status = execFileSync(
    'git',
    ['status', '--porcelain', '--untracked-files=all', '--', '.', ':!.suture', ':!**/__pycache__'],
    { cwd: box.dir, encoding: 'utf8' },
  );
  return status === '' && JSON.stringify([...now]) === JSON.stringify([...box.before]);
}

export async function cleanup(): Promise<void> {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
}
