import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { runProcess, type SelectionRulesInput } from '@suture/core';
import { CHOOSE_PYTHON, PYTHON_DIR, pythonEnv, resolvePython } from './interpreter.js';
import type { ResolvedPytestOptions } from './options.js';

/**
 * Files whose change runs every test of a pytest project: the build and dependency files that
 * decide what is installed and how pytest is configured, and conftest.py files, whose fixtures
 * and hooks reach tests the recording cannot name.
 */
export const PYTEST_RUN_ALL = [
  '**/pyproject.toml',
  '**/setup.cfg',
  '**/setup.py',
  '**/tox.ini',
  '**/pytest.ini',
  '**/conftest.py',
  '**/requirements*.txt',
  '**/requirements/**',
  '**/constraints*.txt',
  '**/Pipfile',
  '**/Pipfile.lock',
  '**/poetry.lock',
  '**/uv.lock',
  '**/pdm.lock',
  '**/.python-version',
  '**/*.pth',
];

interface Toolchain {
  python: string;
  distributions: string[];
  coverage: string | null;
}

/** The toolchain's identity, the run-everything files and whether coverage.py can record here. */
export async function pytestSelectionRules(
  options: ResolvedPytestOptions,
  root: string,
): Promise<SelectionRulesInput> {
  const env = pythonEnv(process.env, options.env);
  const python = await resolvePython(root, options.python, env);
  const proc = await runProcess(python, [join(PYTHON_DIR, 'suture_pytest_toolchain.py')], {
    cwd: root,
    env,
    timeoutMs: 30_000,
  });
  if (proc.spawnError || proc.exitCode !== 0)
    throw new Error(
      `cannot ask ${python} for its toolchain: ${proc.spawnError ?? proc.output.trim().slice(-500)}; ${CHOOSE_PYTHON}`,
    );
  const found = JSON.parse(proc.output.slice(proc.output.indexOf('{'))) as Toolchain;
  const packages = createHash('sha256').update(found.distributions.join('\n')).digest('hex').slice(0, 16);
  // the runner's own options decide what the tests see too
  const own = createHash('sha256')
    .update(JSON.stringify({ args: options.args, env: options.env }))
    .digest('hex')
    .slice(0, 8);
  return {
    toolchain: `${found.python}; packages ${packages}; options ${own}`,
    runAll: PYTEST_RUN_ALL,
    ...(found.coverage === null
      ? {
          unavailable: `coverage.py is not installed for ${python}; install it (\`${python} -m pip install coverage\`) for suture to record which lines each test runs`,
        }
      : {}),
  };
}
