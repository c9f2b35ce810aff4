import { execFileSync } from 'node:child_process';
import { access, chmod, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { RunResult } from '@suture/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ctest from '../../src/index.js';
import type { CtestOptions } from '../../src/options.js';
import { cleanup, copy, run, tempDir } from './support.js';

afterAll(cleanup);

const ON = ['-DMINI_BUILD_TESTS=ON'];

const statuses = (r: RunResult): Record<string, string> =>
  Object.fromEntries(r.tests.map((t) => [t.id, t.status]));

/** A tool that appends its arguments to a log, then runs the real one. */
async function logged(dir: string, tool: string): Promise<{ path: string; log: () => Promise<string[]> }> {
  const path = join(dir, basename(tool));
  const log = join(dir, `${basename(tool)}.log`);
  await writeFile(path, `#!/bin/sh\necho "$*" >> '${log}'\nexec ${tool} "$@"\n`);
  await chmod(path, 0o755);
  return { path, log: async () => (await readFile(log, 'utf8').catch(() => '')).split('\n').filter(Boolean) };
}

// A small CMake project whose tests are behind an option that is OFF by default.
describe('the CTest runner options', () => {
  let root: string;
  const runWith = async (options: CtestOptions, timeoutMs?: number): Promise<RunResult> => {
    process.env.PAIR_DIR = await tempDir('pair');
    return run(root, { runner: ctest(options), ...(timeoutMs ? { timeoutMs } : {}) });
  };
  beforeAll(async () => {
    root = await copy('mini');
  });

  it('names the CMake option the tests are behind, and the configureArgs that turn it on', async () => {
    const r = await runWith({ parallel: 2 });
    expect(r.status).toBe('error');
    expect(r.tests).toEqual([]);
    expect(r.error).toBe(
      'CTest ran no test: the tests are behind CMake options that are OFF: MINI_BUILD_TESTS (CMakeLists.txt:3). Turn them on with the runner option "configureArgs": ["-DMINI_BUILD_TESTS=ON"]',
    );
  }, 300_000);

  it('configureArgs: reconfigures with them, and the tests run', async () => {
    const r = await runWith({ parallel: 2, configureArgs: ON });
    expect(statuses(r)).toEqual({ 'mini.runs': 'passed', 'pair.a': 'passed', 'pair.b': 'passed' });
  }, 300_000);

  it('testJobs: 1 runs one test at a time, 2 runs two at once', async () => {
    const one = await runWith({ parallel: 2, configureArgs: ON, testJobs: 1 });
    expect(statuses(one)).toEqual({ 'mini.runs': 'passed', 'pair.a': 'failed', 'pair.b': 'passed' });
    expect(one.tests.find((t) => t.id === 'pair.a')!.message).toBe('b never started while a ran');
    const two = await runWith({ parallel: 2, configureArgs: ON, testJobs: 2 });
    expect(statuses(two)).toEqual({ 'mini.runs': 'passed', 'pair.a': 'passed', 'pair.b': 'passed' });
  }, 300_000);

  it('reads the CMake error of a changed CMakeLists.txt from the build, which runs CMake again itself', async () => {
    const file = join(root, 'CMakeLists.txt');
    const text = await readFile(file, 'utf8');
    await writeFile(
      file,
      text.replace('add_executable(mini main.cpp)', 'add_executable(mini main.cpp missing.cpp)'),
    );
    const broken = await runWith({ parallel: 2, configureArgs: ON }).finally(() => writeFile(file, text));
    expect(broken.status).toBe('failed');
    expect(broken.tests).toEqual([]);
    expect(broken.diagnostics).toContainEqual(
      expect.objectContaining({ source: 'cmake', file: 'CMakeLists.txt', line: 5, symbol: 'add_executable' }),
    );
    const fixed = await runWith({ parallel: 2, configureArgs: ON });
    expect(statuses(fixed)['mini.runs']).toBe('passed');
  }, 300_000);

  it("places a missing package at the find_package of the project that asked for it, not in CMake's module", async () => {
    // a Find module outside the repository, as CMake's own are: its error is raised in there
    const modules = await tempDir('modules');
    await writeFile(
      join(modules, 'FindSutureMissing.cmake'),
      'find_library(SUTURE_MISSING_LIBRARY NAMES suture-missing-library)\ninclude(FindPackageHandleStandardArgs)\nfind_package_handle_standard_args(SutureMissing REQUIRED_VARS SUTURE_MISSING_LIBRARY)\n',
    );
    const file = join(root, 'CMakeLists.txt');
    const text = await readFile(file, 'utf8');
    await writeFile(
      file,
      text.replace(
        'add_executable(mini main.cpp)',
        'find_package(SutureMissing REQUIRED)\nadd_executable(mini main.cpp)',
      ),
    );
    const r = await runWith({
      parallel: 2,
      configureArgs: [...ON, `-DCMAKE_MODULE_PATH=${modules}`],
    }).finally(() => writeFile(file, text));
    expect(r.tests).toEqual([]);
    const missing = r.diagnostics.find(
      (d) => d.source === 'cmake' && /Could NOT find SutureMissing/.test(d.message),
    );
    expect(missing).toMatchObject({ file: 'CMakeLists.txt', line: 5, symbol: 'find_package' });
    expect(missing!.notes).toEqual([
      {
        message:
          'find_package(SutureMissing) asks for SutureMissing, which is not installed: install it, or turn off what needs it through the runner option "configureArgs"',
        file: 'CMakeLists.txt',
        line: 5,
      },
    ]);
  }, 300_000);

  it('cmake, ctest, parallel, buildArgs, ctestArgs: the tools given, with the arguments given', async () => {
    const bin = await tempDir('bin');
    const cmake = await logged(bin, 'cmake');
    const tool = await logged(bin, 'ctest');
    const r = await runWith({
      cmake: cmake.path,
      ctest: tool.path,
      configureArgs: ON,
      parallel: 3,
      buildArgs: ['--verbose'],
      ctestArgs: ['-E', '^pair\\.'],
    });
    expect(statuses(r)).toEqual({ 'mini.runs': 'passed' });
    const build = join(root, 'build-suture');
    expect(await cmake.log()).toContain(`--build ${build} --parallel 3 --verbose`);
    expect(
      (await tool.log()).some((l) => l.startsWith(`--test-dir ${build} -V -j`) && l.endsWith('-E ^pair\\.')),
    ).toBe(true);
  }, 300_000);

  it('builds a Ninja folder with the Ninja CMake chose, not through cmake --build, unless buildArgs are given', async () => {
    const bin = await tempDir('bin');
    // a logging cmake first on PATH, in front of the real one it runs
    const real = execFileSync('sh', ['-c', 'command -v cmake'], { encoding: 'utf8' }).trim();
    const cmake = await logged(bin, real);
    await rename(cmake.path, join(bin, 'cmake'));
    const path = process.env.PATH;
    process.env.PATH = `${bin}:${path}`;
    try {
      const warm = await runWith({ parallel: 2, configureArgs: ON });
      expect(statuses(warm)).toEqual({ 'mini.runs': 'passed', 'pair.a': 'passed', 'pair.b': 'passed' });
      expect((await cmake.log()).filter((l) => l.startsWith('--build'))).toEqual([]);
      const file = join(root, 'main.cpp');
      const text = await readFile(file, 'utf8');
      await writeFile(file, `${text}\nint broken(\n`);
      const broken = await runWith({ parallel: 2, configureArgs: ON }).finally(() => writeFile(file, text));
      expect(broken.status).toBe('failed');
      const ninja = /^CMAKE_MAKE_PROGRAM:FILEPATH=(.+)$/m.exec(
        await readFile(join(root, 'build-suture', 'CMakeCache.txt'), 'utf8'),
      )![1]!;
      expect(broken.command).toBe(`${ninja} -C ${join(root, 'build-suture')} -j 2`);
      expect(broken.diagnostics).toContainEqual(
        expect.objectContaining({ file: 'main.cpp', severity: 'error' }),
      );
      // buildArgs are CMake's: then the build goes through cmake --build
      const viaCmake = await runWith({ parallel: 2, configureArgs: ON, buildArgs: ['--verbose'] });
      expect(statuses(viaCmake)['mini.runs']).toBe('passed');
      expect(await cmake.log()).toContain(`--build ${join(root, 'build-suture')} --parallel 2 --verbose`);
    } finally {
      process.env.PATH = path;
    }
  }, 300_000);

  it('says which option to raise when the build step reaches the run’s time limit', async () => {
    await writeFile(join(root, 'slow.flag'), '');
    const r = await runWith({ parallel: 2, configureArgs: ON }, 4000).finally(() =>
      rm(join(root, 'slow.flag')),
    );
    expect(r.status).toBe('timeout');
    expect(r.tests).toEqual([]);
    expect(r.diagnostics[0]!.message).toBe(
      'the build step exceeded the run\'s time limit of 4000 ms; raise "timeoutMs" in the suture config (per project or at the top)',
    );
  }, 300_000);

  it('buildDir, generator, buildType: a build folder of their own, configured as asked', async () => {
    const r = await runWith({
      parallel: 2,
      configureArgs: ON,
      buildDir: 'out/release',
      generator: 'Unix Makefiles',
      buildType: 'Release',
      ctestArgs: ['-R', 'mini'],
    });
    expect(statuses(r)).toEqual({ 'mini.runs': 'passed' });
    const cache = await readFile(join(root, 'out/release/CMakeCache.txt'), 'utf8');
    expect(cache).toMatch(/^CMAKE_GENERATOR:INTERNAL=Unix Makefiles$/m);
    expect(cache).toMatch(/^CMAKE_BUILD_TYPE:STRING=Release$/m);
    await access(join(root, 'out/release/Makefile'));
  }, 300_000);

  it('says what to install when cmake or ctest is missing', async () => {
    const noCmake = await runWith({ cmake: '/nonexistent/cmake' });
    expect(noCmake).toMatchObject({ status: 'error', tests: [] });
    expect(noCmake.error).toMatch(/install CMake \(apt-get install cmake\) or set the runner option "cmake"/);
    const noCtest = await runWith({ parallel: 2, configureArgs: ON, ctest: '/nonexistent/ctest' });
    expect(noCtest).toMatchObject({ status: 'error', tests: [] });
    expect(noCtest.error).toMatch(/install CMake \(apt-get install cmake\) or set the runner option "ctest"/);
  }, 300_000);

  it('tells a config with the old testTimeout (seconds) its new name and unit', () => {
    expect(() => ctest({ testTimeout: 5 } as CtestOptions)).toThrow(
      'the runner option "testTimeout" was renamed "testTimeoutMs" and is now in milliseconds: write "testTimeoutMs": 5000',
    );
  });
});
