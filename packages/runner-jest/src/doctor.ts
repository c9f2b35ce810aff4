import type { DoctorCheck } from '@suture/core';
import { jestVersion, resolveJest } from './resolve-jest.js';

/** What suture can do with this Jest: run it (27 or newer), and name a test that blocks (29.6 or newer). */
function jestCheck(script: string, version: string | undefined): DoctorCheck {
  const message = `jest ${version ?? '(version unknown)'} at ${script}`;
  const [major = 0, minor = 0] = (version ?? '').split('.').map(Number);
  if (version === undefined || major > 29 || (major === 29 && minor >= 6))
    return { name: 'jest', status: 'ok', message };
  if (major < 27)
    return {
      name: 'jest',
      status: 'error',
      message: `${message}: suture runs Jest 27 or newer`,
      fix: 'npm install -D jest@latest',
    };
  return {
    name: 'jest',
    status: 'warn',
    message: `${message}: Jest before 29.6 does not report when a test starts, so a test that blocks its worker is stopped at its file's limit (60 s at least) and named only by the test that ended before it`,
    fix: 'npm install -D jest@latest',
  };
}

export async function doctorJest(root: string, jestBin?: string): Promise<DoctorCheck[]> {
  const [major] = process.versions.node.split('.').map(Number);
  const checks: DoctorCheck[] = [
    {
      name: 'node',
      status: (major ?? 0) >= 18 ? 'ok' : 'error',
      message: `Node.js ${process.versions.node}`,
    },
  ];
  const jest = await resolveJest(root, jestBin);
  checks.push(
    jest
      ? jestCheck(jest.script, jest.version ?? (await jestVersion(jest.script)))
      : {
          name: 'jest',
          status: 'error',
          message: `Jest is not installed for ${root}`,
          fix: 'npm install -D jest',
        },
  );
  return checks;
}
