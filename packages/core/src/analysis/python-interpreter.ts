import { access, constants } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';

/** Virtualenv folders looked for in a project root, in this order. */
const VENV_DIRS: readonly string[] = ['.venv', 'venv', 'env'];

async function executable(path: string): Promise<boolean> {
  return access(path, constants.X_OK).then(
    () => true,
    () => false,
  );
}

/**
 * The Python interpreter for a project, one answer for the pytest runner and the hints fixer:
 *
 * 1. the configured `python` option: an absolute path as is; a bare command (`python3.12`) as a
 *    name looked up on PATH; a relative path (`.venv/bin/python`) relative to the project root,
 *    where the tests run and where the virtualenv lookup below looks too, so one option names
 *    each project's own interpreter even when a fixer's option is shared by every project;
 * 2. the project's virtualenv: `bin/python` in `.venv`, `venv` or `env` under the project root;
 * 3. `python3` on PATH.
 */
export async function resolvePython(root: string, configured?: string): Promise<string> {
  if (configured) {
    if (isAbsolute(configured) || !/[\\/]/.test(configured)) return configured;
    return join(root, configured);
  }
  for (const dir of VENV_DIRS) {
    const candidate = join(root, dir, 'bin', 'python');
    if (await executable(candidate)) return candidate;
  }
  return 'python3';
}
