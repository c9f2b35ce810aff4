import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import { delimiter, isAbsolute, join } from 'node:path';
import { makeIgnoredDir, runProcess, type Diagnostic, type RunContext } from '@suture/core';
import { failedStepDiagnostic } from './build-step.js';
import { exists } from './exists.js';
import { parseCmakeErrors, parseCompilerOutput } from './gcc-diagnostics.js';
import { runLimitHint } from './limits.js';
import { DEFAULT_BUILD_DIR, type ResolvedCtestOptions } from './options.js';

/** Machine-readable fix-its and no colour: spelled the same by GCC and Clang. */
const FLAGS = '-fdiagnostics-parseable-fixits -fdiagnostics-color=never';

/** The user's own flags (CXXFLAGS, CFLAGS) stay; suture's come after them. */
const compilerFlags = (own: string | undefined): string => [own, FLAGS].filter(Boolean).join(' ');

export const buildEnv = (): Record<string, string | undefined> => ({
  ...process.env,
  LC_ALL: 'C',
  LANG: 'C',
  CLICOLOR_FORCE: '0',
  CMAKE_COLOR_DIAGNOSTICS: 'OFF',
});

let ninja: Promise<boolean> | undefined;
/** Looked up on PATH rather than run: a warm gate starts no process it does not need. */
function hasNinja(): Promise<boolean> {
  // every folder of PATH at once: one after another, a long PATH costs a warm gate milliseconds
  ninja ??= Promise.all(
    (process.env.PATH ?? '')
      .split(delimiter)
      .filter(Boolean)
      .map((dir) => exists(join(dir, 'ninja'), constants.X_OK)),
  ).then((found) => found.includes(true));
  return ninja;
}

export interface BuildOutcome {
  ok: boolean;
  command: string;
  output: string;
  durationMs: number;
  diagnostics: Diagnostic[];
  /** The toolchain itself is missing or broken: what to install. */
  error?: string;
  /** The run's wall-clock limit stopped the configure or build step. */
  timedOut?: boolean;
}

const left = (ctx: RunContext, started: number): number =>
  Math.max(1, ctx.timeoutMs - (Date.now() - started));

/**
 * Configures when the build folder has not been configured with this exact command (options, the
 * user's flags), then builds incrementally. A changed CMakeLists.txt needs no check here: the
 * generated build system re-runs CMake itself, as it does for the user, so a warm gate reads no
 * project file and starts no process but the build and the tests.
 */
export async function configureAndBuild(
  options: ResolvedCtestOptions,
  ctx: RunContext,
  buildDir: string,
  started = Date.now(),
): Promise<BuildOutcome> {
  const env = buildEnv();
  const hashFile = join(buildDir, '.suture-configure');
  const readCache = (): Promise<string | undefined> =>
    readFile(join(buildDir, 'CMakeCache.txt'), 'utf8').catch(() => undefined);
  // what a warm gate reads before it builds, read together
  const [, ninjaFound, cached, configuredWith] = await Promise.all([
    // a build folder suture makes (or its own by name) never shows up in `git status`
    makeIgnoredDir(buildDir, { owned: options.buildDir === DEFAULT_BUILD_DIR }),
    options.generator ? false : hasNinja(),
    readCache(),
    readFile(hashFile, 'utf8').catch(() => ''),
  ]);
  const generator = options.generator ?? (ninjaFound ? 'Ninja' : undefined);
  const configure = [
    '-S',
    ctx.root,
    '-B',
    buildDir,
    ...(generator ? ['-G', generator] : []),
    `-DCMAKE_BUILD_TYPE=${options.buildType}`,
    // the analyzer reads each unit's include folders from it
    '-DCMAKE_EXPORT_COMPILE_COMMANDS=ON',
    `-DCMAKE_CXX_FLAGS=${compilerFlags(env.CXXFLAGS)}`,
    `-DCMAKE_C_FLAGS=${compilerFlags(env.CFLAGS)}`,
    ...options.configureArgs,
  ];
  const hash = createHash('sha1').update(options.cmake).update(JSON.stringify(configure)).digest('hex');
  const configured = cached !== undefined && configuredWith === hash;
  let log = '';
  const stopped = (step: string, command: string): BuildOutcome => ({
    ok: false,
    command,
    output: log,
    durationMs: Date.now() - started,
    timedOut: true,
    diagnostics: [
      {
        source: step === 'configure' ? 'cmake' : 'build',
        severity: 'error',
        message: `the ${step} step exceeded the run's time limit of ${ctx.timeoutMs} ms; ${runLimitHint}`,
        notes: [],
        fixIts: [],
        tests: [],
        raw: log.slice(-4000),
      },
    ],
  });
  if (!configured) {
    const r = await runProcess(options.cmake, configure, {
      cwd: ctx.root,
      env,
      timeoutMs: left(ctx, started),
      signal: ctx.signal,
    });
    log += r.output;
    if (r.spawnError)
      return {
        ok: false,
        command: r.command,
        output: log,
        durationMs: Date.now() - started,
        diagnostics: [],
        error: `${options.cmake} not found: install CMake (apt-get install cmake) or set the runner option "cmake"`,
      };
    if (r.timedOut) return stopped('configure', r.command);
    if (r.exitCode !== 0) return configureFailed(r.output, r.command, log, ctx.root, started);
    await writeFile(hashFile, hash);
  }
  const cache = configured ? cached : await readCache();
  const jobs = String(options.parallel ?? cpus().length);
  const direct = await directNinja(options, cache ?? '');
  const [tool, args] = direct
    ? [direct, ['-C', buildDir, '-j', jobs]]
    : [options.cmake, ['--build', buildDir, '--parallel', jobs, ...options.buildArgs]];
  const b = await runProcess(tool, args, {
    cwd: ctx.root,
    env,
    timeoutMs: left(ctx, started),
    signal: ctx.signal,
  });
  log += b.output;
  if (b.exitCode === 0)
    return { ok: true, command: b.command, output: log, durationMs: Date.now() - started, diagnostics: [] };
  if (b.timedOut) return stopped('build', b.command);
  // the build system re-ran CMake for a changed CMakeLists.txt, and CMake failed
  const diagnostics = [...parseCompilerOutput(b.output, ctx.root), ...parseCmakeErrors(b.output, ctx.root)];
  return {
    ok: false,
    command: b.command,
    output: log,
    durationMs: Date.now() - started,
    diagnostics:
      diagnostics.length > 0
        ? diagnostics
        : b.aborted
          ? [
              {
                source: 'build',
                severity: 'error',
                message: 'the build was cancelled',
                notes: [],
                fixIts: [],
                tests: [],
                raw: b.output.slice(-4000),
              },
            ]
          : [await failedStepDiagnostic(b.output, ctx.root, buildDir, b.exitCode)],
  };
}

/**
 * The Ninja that `cmake --build` would run for this folder, to run it without CMake in between
 * (CMake's own start costs a warm gate some 15 ms a build): only for a plain Ninja folder, the
 * `cmake` of the default and no `buildArgs`, which are CMake's to read. Ninja re-runs CMake itself
 * when a CMakeLists.txt changed, as it does under `cmake --build`.
 */
async function directNinja(options: ResolvedCtestOptions, cache: string): Promise<string | undefined> {
  if (options.cmake !== 'cmake' || options.buildArgs.length > 0) return undefined;
  if (!/^CMAKE_GENERATOR:INTERNAL=Ninja$/m.test(cache)) return undefined;
  const program = /^CMAKE_MAKE_PROGRAM:FILEPATH=(.+)$/m.exec(cache)?.[1];
  return program && isAbsolute(program) && (await exists(program, constants.X_OK)) ? program : undefined;
}

function configureFailed(
  output: string,
  command: string,
  log: string,
  root: string,
  started: number,
): BuildOutcome {
  const diagnostics = parseCmakeErrors(output, root);
  const gtest = /Could NOT find GTest/.test(output)
    ? '; GoogleTest is missing: apt-get install libgtest-dev'
    : '';
  const compiler = /No CMAKE_CXX_COMPILER could be found|CMAKE_CXX_COMPILER not set/.test(output)
    ? '; no C++ compiler: apt-get install g++'
    : '';
  return {
    ok: false,
    command,
    output: log,
    durationMs: Date.now() - started,
    diagnostics:
      diagnostics.length > 0
        ? diagnostics
        : [
            {
              source: 'cmake',
              severity: 'error',
              message: `CMake configure failed${gtest}${compiler}`,
              notes: [],
              fixIts: [],
              tests: [],
              raw: output.slice(-4000),
            },
          ],
    ...(gtest || compiler ? { error: `CMake configure failed${gtest}${compiler}` } : {}),
  };
}
