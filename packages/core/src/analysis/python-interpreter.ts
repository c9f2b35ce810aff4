import { access, constants } from 'node:fs/promises';
import { basename, delimiter, dirname, isAbsolute, join } from 'node:path';

/** Virtualenv folders looked for in a project root, in this order. */
const VENV_DIRS: readonly string[] = ['.venv', 'venv', 'env'];

/** How a user picks another interpreter, for every message that names the one suture ran. */
export const CHOOSE_PYTHON =
  'set the runner option "python" to the interpreter that has it, or create the project\'s .venv';

async function executable(path: string): Promise<boolean> {
  return access(path, constants.X_OK).then(
    () => true,
    () => false,
  );
}

/** A folder a Node task runner puts in front of PATH: a `node_modules/.bin` or npm's node-gyp-bin. */
function nodeBin(entry: string): boolean {
  const normal = entry.replace(/[\\/]+$/, '');
  return (
    (basename(normal) === '.bin' && basename(dirname(normal)) === 'node_modules') ||
    basename(normal) === 'node-gyp-bin'
  );
}

/**
 * PATH as the user's shell had it. npm scripts and Nx (through npm-run-path) run a task with
 * every `node_modules/.bin` from its folder up to the root, and Nx then with the folder of the
 * Node binary, put in front of the shell's PATH. When Node lives in /usr/bin that folder holds
 * the system's python3 too, which then wins over the pyenv, conda or virtualenv python3 the
 * shell would run. So the leading `node_modules/.bin` folders and, right after them, one entry
 * that is Node's own folder are dropped; a PATH that does not start so is taken as it is.
 */
export function shellPath(path: string | undefined, execPath: string = process.execPath): string[] {
  const entries = (path ?? '').split(delimiter).filter((entry) => entry !== '');
  let start = 0;
  while (start < entries.length && nodeBin(entries[start]!)) start++;
  if (start > 0 && entries[start] === dirname(execPath)) start++;
  return entries.slice(start);
}

async function onPath(command: string, entries: readonly string[]): Promise<string | undefined> {
  for (const entry of entries) {
    const candidate = join(entry, command);
    if (await executable(candidate)) return candidate;
  }
  return undefined;
}

/**
 * A bare command found as the user's shell would find it: on the shell's PATH first, then on
 * the whole PATH (a python3 only a Node task runner's folders hold is still better than none).
 * The absolute path it found, so every message can name the interpreter that ran; the command
 * as given when no folder has it, which then fails to start naming it.
 */
export async function whichPython(command: string, env: NodeJS.ProcessEnv = process.env): Promise<string> {
  const path = env.PATH;
  return (
    (await onPath(command, shellPath(path))) ??
    (await onPath(command, (path ?? '').split(delimiter).filter(Boolean))) ??
    command
  );
}

/**
 * The Python interpreter for a project, one answer for the pytest runner and the hints fixer:
 *
 * 1. the configured `python` option: an absolute path as is; a bare command (`python3.12`) as a
 *    name looked up on PATH as the shell would; a relative path (`.venv/bin/python`) relative
 *    to the project root, where the tests run and where the virtualenv lookup below looks too,
 *    so one option names each project's own interpreter even when a fixer's option is shared
 *    by every project;
 * 2. the project's virtualenv: `bin/python` in `.venv`, `venv` or `env` under the project root;
 * 3. the activated virtualenv, `$VIRTUAL_ENV/bin/python`;
 * 4. `python3` on PATH, as the user's shell would find it (see {@link shellPath}).
 *
 * `env` is the environment the interpreter will run in (its PATH and VIRTUAL_ENV are read).
 */
export async function resolvePython(
  root: string,
  configured?: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<string> {
  if (configured) {
    if (isAbsolute(configured)) return configured;
    if (!/[\\/]/.test(configured)) return whichPython(configured, env);
    return join(root, configured);
  }
  for (const dir of VENV_DIRS) {
    const candidate = join(root, dir, 'bin', 'python');
    if (await executable(candidate)) return candidate;
  }
  if (env.VIRTUAL_ENV) {
    const active = join(env.VIRTUAL_ENV, 'bin', 'python');
    if (await executable(active)) return active;
  }
  return whichPython('python3', env);
}
