// Running the built `suture` binary as a user does, for the safety suites and the bench scripts.
import { execFileSync, spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const BIN = fileURLToPath(new URL('../../dist/bin.js', import.meta.url));
export const REPO = fileURLToPath(new URL('../../../../', import.meta.url));
/** Starts the binary and writes its peak RSS (kB, from getrusage) to the file in SUTURE_RSS_FILE. */
const RSS_WRAPPER = fileURLToPath(new URL('./rss-wrapper.mjs', import.meta.url));

/** Environment of a run: CI-like output, and nothing from the caller's suture settings. */
export function cleanEnv(extra = {}) {
  const env = { ...process.env, CI: '1' };
  for (const name of Object.keys(env))
    if (name.startsWith('SUTURE_') || name === 'GITHUB_STEP_SUMMARY') delete env[name];
  return { ...env, ...extra };
}

/**
 * Spawns `suture args...` in `cwd`. With `measureRss` the process runs through a wrapper that
 * reports its own peak RSS on exit.
 * @returns {import('node:child_process').ChildProcess}
 */
export function spawnSuture(args, cwd, { env = {}, measureRss } = {}) {
  const argv = measureRss ? [RSS_WRAPPER, BIN, ...args] : [BIN, ...args];
  return spawn(process.execPath, argv, {
    cwd,
    env: cleanEnv({ ...env, ...(measureRss ? { SUTURE_RSS_FILE: measureRss } : {}) }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/**
 * Runs `suture args...` to its end.
 * @returns {Promise<{ code: number | null, signal: string | null, stdout: string, stderr: string }>}
 */
export function runSuture(args, cwd, options = {}) {
  return new Promise((resolve, reject) => {
    const child = spawnSuture(args, cwd, options);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

/** A fresh folder under the repository's `.tmp` (so that workspace packages resolve from it). */
export async function tempRepoDir(prefix) {
  const base = join(REPO, '.tmp');
  await mkdir(base, { recursive: true });
  return mkdtemp(join(base, prefix));
}

export async function removeDir(dir) {
  await rm(dir, { recursive: true, force: true });
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Makes `root` a git repository whose one commit holds every file in it, as a fixture's start. */
export function commitFixture(root) {
  const git = (...args) =>
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], {
      cwd: root,
      stdio: 'ignore',
    });
  git('init', '-q');
  git('add', '.');
  git('commit', '-qm', 'fixture');
}

/** Writes `content` to `rel` under `root`, making its folders. */
export async function writeAt(root, rel, content) {
  await mkdir(join(root, rel, '..'), { recursive: true });
  await writeFile(join(root, rel), content);
}
