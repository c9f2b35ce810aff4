import { fileURLToPath } from 'node:url';

// One lookup for the runner and the hints fixer: the option, the project's virtualenv, python3.
export { resolvePython } from '@suture/core/analysis';

/** Folder holding the pytest plugin shipped with this package. */
export const PLUGIN_DIR = fileURLToPath(new URL('../python', import.meta.url));
export const PLUGIN_MODULE = 'suture_pytest_plugin';

export function pythonEnv(
  base: NodeJS.ProcessEnv,
  extra: Record<string, string>,
): Record<string, string | undefined> {
  return {
    ...base,
    ...extra,
    PYTHONPATH: [PLUGIN_DIR, base.PYTHONPATH].filter(Boolean).join(':'),
    // The runner must not write into the project: no __pycache__, no .pytest_cache.
    PYTHONDONTWRITEBYTECODE: '1',
    PYTHONUNBUFFERED: '1',
    PYTHONIOENCODING: 'utf-8',
    PY_COLORS: '0',
  };
}
