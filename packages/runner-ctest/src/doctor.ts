import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runProcess, type DoctorCheck } from '@suture/core';
import type { ResolvedCtestOptions } from './options.js';

async function version(bin: string, args: string[]): Promise<string | undefined> {
  const r = await runProcess(bin, args, { cwd: process.cwd(), env: process.env, timeoutMs: 15_000 });
  return r.exitCode === 0 ? r.output.split('\n')[0]!.trim() : undefined;
}

export async function doctorCtest(options: ResolvedCtestOptions): Promise<DoctorCheck[]> {
  const checks: DoctorCheck[] = [];
  const check = async (
    name: string,
    bin: string,
    args: string[],
    fix: string,
    optional = false,
  ): Promise<void> => {
    const v = await version(bin, args);
    // `ninja --version` prints a bare number; say which tool it is
    checks.push(
      v
        ? { name, status: 'ok', message: /^[\d.]+$/.test(v) ? `${name} ${v}` : v }
        : { name, status: optional ? 'warn' : 'error', message: `${bin} not found`, fix },
    );
  };
  await check('cmake', options.cmake, ['--version'], 'apt-get install cmake');
  await check('ctest', options.ctest, ['--version'], 'apt-get install cmake');
  await check('c++', 'c++', ['--version'], 'apt-get install g++');
  await check(
    'ninja',
    'ninja',
    ['--version'],
    'apt-get install ninja-build (optional: builds are faster)',
    true,
  );
  // GoogleTest: ask CMake itself, the way the projects find it
  const dir = await mkdtemp(join(tmpdir(), 'suture-gtest-probe-'));
  await writeFile(
    join(dir, 'CMakeLists.txt'),
    'cmake_minimum_required(VERSION 3.16)\nproject(probe CXX)\nfind_package(GTest)\nif(NOT GTest_FOUND)\n  message(FATAL_ERROR "no gtest")\nendif()\n',
  );
  const r = await runProcess(options.cmake, ['-S', dir, '-B', join(dir, 'b')], {
    cwd: dir,
    env: process.env,
    timeoutMs: 60_000,
  });
  checks.push(
    r.exitCode === 0
      ? { name: 'googletest', status: 'ok', message: 'find_package(GTest) works' }
      : {
          name: 'googletest',
          status: 'warn',
          message: 'GoogleTest not found by CMake',
          fix: 'apt-get install libgtest-dev (needed by projects that use find_package(GTest))',
        },
  );
  await rm(dir, { recursive: true, force: true });
  return checks;
}
