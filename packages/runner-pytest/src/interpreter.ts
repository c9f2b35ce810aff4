import { access } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Folder holding the pytest plugin shipped with this package. */
export const PLUGIN_DIR = fileURLToPath(new URL('../python', import.meta.url));
export const PLUGIN_MODULE = 'suture_pytest_plugin';

/** The interpreter to run: the configured one, the project's virtualenv, or python3 on PATH. */
export async function resolvePython(root: string, configured?: string): Promise<string> {
  if (configured)
    return isAbsolute(configured) || !configured.includes('/') ? configured : join(root, configured);
  for (const venv of ['.venv', 'venv', 'env']) {
    const candidate = join(root, venv, 'bin', 'python');
    try {
      await access(candidate);
      return candidate;
    } catch {
      // not this one
    }
  }
  return 'python3';
}

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
