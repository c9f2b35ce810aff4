import { execFile, spawn } from 'node:child_process';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const BIN = fileURLToPath(new URL('../../dist/bin.js', import.meta.url));
export const REPO = fileURLToPath(new URL('../../../../', import.meta.url));
const temps: string[] = [];

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * The environment a test's suture starts with: this process's, without the colour switches a
 * task runner sets for its children (nx sets FORCE_COLOR), so output is plain text unless a test
 * asks for colour; CI set, as in a pipeline.
 */
export function cliEnv(env: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const { FORCE_COLOR: _force, NO_COLOR: _no, ...inherited } = process.env;
  return { ...inherited, CI: '1', ...env };
}

/** Runs the built `suture` binary as a user would. */
export function suture(args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [BIN, ...args],
      { cwd, env: cliEnv(env), timeout: 180_000 },
      (error, stdout, stderr) => {
        resolve({ code: error ? ((error as { code?: number }).code ?? null) : 0, stdout, stderr });
      },
    );
  });
}

export function spawnSuture(args: string[], cwd: string): ReturnType<typeof spawn> {
  return spawn(process.execPath, [BIN, ...args], {
    cwd,
    env: cliEnv(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** A temp folder (under the repository, so workspace packages resolve) holding a copy of a fixture. */
export async function workspace(fixture?: string): Promise<string> {
  const base = join(REPO, '.tmp');
  const { mkdir } = await import('node:fs/promises');
  await mkdir(base, { recursive: true });
  const dir = await mkdtemp(join(base, 'cli-'));
  temps.push(dir);
  if (fixture) await cp(fixture, dir, { recursive: true });
  return dir;
}

export async function cleanup(): Promise<void> {
  await Promise.all(temps.splice(0).map((d) => rm(d, { recursive: true, force: true })));
}

export { tmpdir };
