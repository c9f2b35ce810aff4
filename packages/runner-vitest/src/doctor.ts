import { resolve } from 'node:path';
import type { DoctorCheck } from '@suture/core';
import { nodeOnPath, nodeVersion } from './node-binary.js';
import { resolveVitest, satisfies } from './resolve-vitest.js';
import { MIN_VITEST_MAJOR } from './start-checks.js';

/** What suture can do with this project's Vitest, and whether the Node on its PATH runs it. */
export async function doctorVitest(
  root: string,
  vitestDir: string | undefined,
  env: Record<string, string | undefined>,
): Promise<DoctorCheck[]> {
  const node = nodeOnPath(env);
  const version = await nodeVersion(node);
  const vitest = await resolveVitest(root, vitestDir);
  if (!vitest)
    return [
      {
        name: 'node',
        status: version ? 'ok' : 'error',
        message: `Node.js ${version ?? '(cannot run)'} at ${node}`,
      },
      vitestDir
        ? {
            name: 'vitest',
            status: 'error',
            message: `the runner option "vitestDir" names ${resolve(root, vitestDir)}, which is not the vitest package`,
            fix: 'point "vitestDir" at the project\'s node_modules/vitest, or remove it to use the Vitest the project resolves',
          }
        : {
            name: 'vitest',
            status: 'error',
            message: `Vitest is not installed for ${root}`,
            fix: 'npm install -D vitest',
          },
    ];
  const nodeOk = !version || !vitest.engines || satisfies(version, vitest.engines);
  const major = Number(vitest.version.split('.')[0]);
  return [
    {
      name: 'node',
      status: nodeOk && version ? 'ok' : 'error',
      message: nodeOk
        ? `Node.js ${version ?? '(cannot run)'} at ${node}`
        : `Node.js ${version} at ${node}: Vitest ${vitest.version} needs Node ${vitest.engines}`,
      ...(nodeOk ? {} : { fix: `install a Node in ${vitest.engines}, or put one first on PATH` }),
    },
    major >= MIN_VITEST_MAJOR
      ? { name: 'vitest', status: 'ok', message: `vitest ${vitest.version} at ${vitest.dir}` }
      : {
          name: 'vitest',
          status: 'error',
          message: `vitest ${vitest.version} at ${vitest.dir}: suture runs Vitest ${MIN_VITEST_MAJOR} or newer`,
          fix: 'npm install -D vitest@latest',
        },
  ];
}
