import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Folder of the Python side shipped with this package: the launcher and suture's pytest plugins. */
export const PYTHON_DIR = fileURLToPath(new URL('../python', import.meta.url));
/** Starts pytest as `python -m pytest` would, with suture's plugins registered as objects. */
export const LAUNCHER = join(PYTHON_DIR, 'suture_pytest_launch.py');
/** The launcher's exit code when pytest is not importable. */
export const EXIT_NO_PYTEST = 97;
/** The exit code of a process the timeout watchdog ended (suture_pytest_timeout.py). */
export const EXIT_STOPPED = 70;

// One lookup for the runner and the hints fixer: the option, the project's virtualenv, python3.
export { CHOOSE_PYTHON, resolvePython } from '@suture/core/analysis';

/**
 * The tests' environment: suture's own with the runner option `env` on top, nothing else. What
 * suture needs to tell its plugins travels in a file, so the code under test sees no variable
 * it would not see under a plain `python -m pytest`.
 */
export function pythonEnv(
  base: NodeJS.ProcessEnv,
  extra: Record<string, string>,
): Record<string, string | undefined> {
  return { ...base, ...extra };
}
