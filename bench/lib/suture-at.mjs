// The suture a hang benchmark runs: this repository's, or with `--at COMMIT` an earlier commit
// built outside it, and a way to run its CLI with a clean environment.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { cleanEnv, REPO } from '../../packages/cli/test/harness/cli.mjs';
import { checkoutAt } from './checkout-at.mjs';

/** The root the CLI and plugins come from, `--at COMMIT` of `argv` or this repository, and that commit. */
export async function sutureRoot(argv) {
  const atIndex = argv.indexOf('--at');
  const at = atIndex >= 0 ? argv[atIndex + 1] : undefined;
  return { root: at ? await checkoutAt(REPO, at) : REPO, at };
}

/** Runs that root's `suture` CLI in `cwd` to its end: exit code and output. */
export function runSutureAt(root, argv, cwd) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(root, 'packages/cli/dist/bin.js'), ...argv], {
      cwd,
      env: cleanEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
