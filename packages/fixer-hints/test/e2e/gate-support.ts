import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { HealConfigSchema, type GateReport, type Runner } from '@suture/core';
import { runGate } from '@suture/core/internal';
import { silentLogger } from '@suture/core/testing';
import hints from '../../src/index.js';

/** Makes `root` a git repository of one commit holding its files, with `ignored` in .gitignore. */
export function commitAll(root: string, ignored: readonly string[]): void {
  const git = (...args: string[]): string =>
    execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], {
      cwd: root,
      encoding: 'utf8',
    });
  execFileSync('sh', ['-c', `printf '${ignored.map((p) => `${p}\\n`).join('')}' > .gitignore`], {
    cwd: root,
  });
  git('init', '-q');
  git('add', '-A');
  git('commit', '-qm', 'fixture');
}

/** The gate in fix mode with the hints fixer alone over the project at `root`, one attempt a failure. */
export function gateWithHints(
  root: string,
  name: string,
  runner: Runner,
  timeoutMs: number,
): Promise<GateReport> {
  return runGate({
    root,
    outputDir: join(root, '.suture/runs'),
    mode: 'fix',
    projects: [
      {
        name,
        root,
        runner,
        analyzer: runner.analyzer!(),
        timeoutMs,
        heal: HealConfigSchema.parse({ flakyReruns: 0, maxAttempts: 1 }),
      },
    ],
    fixers: [hints()],
    reporters: [],
    concurrency: 1,
    logger: silentLogger,
  });
}
