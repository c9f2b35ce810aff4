import type { DoctorCheck } from '@suture/core';
import { resolveJest } from './resolve-jest.js';

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
      ? {
          name: 'jest',
          status: 'ok',
          message: `jest ${jest.version ?? '(version unknown)'} at ${jest.script}`,
        }
      : {
          name: 'jest',
          status: 'error',
          message: `Jest is not installed for ${root}`,
          fix: 'npm install -D jest',
        },
  );
  return checks;
}
