import { runProcess, type DoctorCheck } from '@suture/core';
import { CHOOSE_PYTHON, pythonEnv, resolvePython } from './interpreter.js';
import type { ResolvedPytestOptions } from './options.js';

export async function doctorPytest(options: ResolvedPytestOptions, root: string): Promise<DoctorCheck[]> {
  const env = pythonEnv(process.env, options.env);
  const python = await resolvePython(root, options.python, env);
  const version = await runProcess(python, ['--version'], { cwd: root, env, timeoutMs: 10_000 });
  if (version.spawnError || version.exitCode !== 0) {
    return [
      {
        name: 'python',
        status: 'error',
        message: `${python} not found`,
        fix: `install Python 3 (apt-get install python3), or ${CHOOSE_PYTHON}`,
      },
    ];
  }
  const checks: DoctorCheck[] = [
    { name: 'python', status: 'ok', message: `${python}: ${version.output.trim()}` },
  ];
  const pytest = await runProcess(python, ['-c', 'import pytest; print(pytest.__version__)'], {
    cwd: root,
    env,
    timeoutMs: 20_000,
  });
  checks.push(
    pytest.exitCode === 0
      ? { name: 'pytest', status: 'ok', message: `pytest ${pytest.output.trim()}` }
      : {
          name: 'pytest',
          status: 'error',
          message: `pytest is not importable from ${python}`,
          fix: `${python} -m pip install pytest, or ${CHOOSE_PYTHON}`,
        },
  );
  return checks;
}
