import { execFileSync } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

export { cleanup, suture, workspace } from '../cli-support.js';

/** Real git in `dir`, with an identity so that commits work on any machine. */
export function git(dir: string, ...args: string[]): string {
  return execFileSync(
    'git',
    ['-c', 'user.email=t@example.com', '-c', 'user.name=t', '-c', 'protocol.file.allow=always', ...args],
    { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
  );
}

/** Writes each `path: text` under `dir`, making folders as needed. */
export async function writeTree(dir: string, files: Record<string, string>): Promise<void> {
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), text);
  }
}

/** A git repository of everything in `dir` (ignored files stay out, as in a real checkout). */
export function commitAll(dir: string): void {
  git(dir, 'init', '-q');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-qm', 'project');
}

export interface WrittenConfig {
  projects: Array<{ name: string; root: string; runner: string | [string, Record<string, unknown>] }>;
  [key: string]: unknown;
}

export async function readConfig(dir: string): Promise<WrittenConfig> {
  return JSON.parse(await readFile(join(dir, 'suture.config.json'), 'utf8')) as WrittenConfig;
}

export interface ReportTotals {
  projects: Array<{ name: string; status: string; totals: { tests: number } }>;
}
