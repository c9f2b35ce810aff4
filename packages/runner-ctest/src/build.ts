import { createHash } from 'node:crypto';
import { access, readdir, readFile, writeFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import { join, relative } from 'node:path';
import { makeIgnoredDir, runProcess, type Diagnostic, type RunContext } from '@suture/core';
import { parseCmakeErrors, parseCompilerOutput } from './gcc-diagnostics.js';
import { DEFAULT_BUILD_DIR, type ResolvedCtestOptions } from './options.js';

const SKIP = new Set(['.git', 'node_modules', '.suture']);
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

/** Hash of every CMakeLists.txt and *.cmake file of the project (outside build folders). */
async function cmakeHash(root: string, buildDir: string): Promise<string> {
  const hash = createHash('sha1');
  const walk = async (dir: string): Promise<void> => {
    const entries = (await readdir(dir, { withFileTypes: true }).catch(() => [])).sort((a, b) =>
      a.name.localeCompare(b.name),
    );
    for (const e of entries) {
      const abs = join(dir, e.name);
      if (e.isDirectory()) {
        if (
          SKIP.has(e.name) ||
          abs === buildDir ||
          (await access(join(abs, 'CMakeCache.txt')).then(
            () => true,
            () => false,
          ))
        )
          continue;
        await walk(abs);
      } else if (e.name === 'CMakeLists.txt' || e.name.endsWith('.cmake')) {
        hash.update(relative(root, abs)).update(await readFile(abs));
      }
    }
  };
  await walk(root);
  return hash.digest('hex');
}

let ninja: Promise<boolean> | undefined;
function hasNinja(): Promise<boolean> {
  ninja ??= runProcess('ninja', ['--version'], {
    cwd: process.cwd(),
    env: process.env,
    timeoutMs: 10_000,
  }).then((r) => r.exitCode === 0);
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
}

/** Configures when needed (missing build folder, changed CMake files), then builds incrementally. */
export async function configureAndBuild(
  options: ResolvedCtestOptions,
  ctx: RunContext,
  buildDir: string,
): Promise<BuildOutcome> {
  const started = Date.now();
  const env = buildEnv();
  // a build folder suture makes (or its own by name) never shows up in `git status`
  await makeIgnoredDir(buildDir, { owned: options.buildDir === DEFAULT_BUILD_DIR });
  const hashFile = join(buildDir, '.suture-cmake-hash');
  const generator = options.generator ?? ((await hasNinja()) ? 'Ninja' : undefined);
  const configure = [
    '-S',
    ctx.root,
    '-B',
    buildDir,
    ...(generator ? ['-G', generator] : []),
    `-DCMAKE_BUILD_TYPE=${options.buildType}`,
    `-DCMAKE_CXX_FLAGS=${compilerFlags(env.CXXFLAGS)}`,
    `-DCMAKE_C_FLAGS=${compilerFlags(env.CFLAGS)}`,
    ...options.configureArgs,
  ];
  // a change of the configure command (options, the user's flags) reconfigures like a CMake file change
  const hash = createHash('sha1')
    .update(await cmakeHash(ctx.root, buildDir))
    .update(JSON.stringify(configure))
    .digest('hex');
  const configured =
    (await access(join(buildDir, 'CMakeCache.txt')).then(
      () => true,
      () => false,
    )) && (await readFile(hashFile, 'utf8').catch(() => '')) === hash;
  let log = '';
  if (!configured) {
    const r = await runProcess(options.cmake, configure, {
      cwd: ctx.root,
      env,
      timeoutMs: ctx.timeoutMs,
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
    if (r.exitCode !== 0) {
      const diagnostics = parseCmakeErrors(r.output, ctx.root);
      const gtest = /Could NOT find GTest/.test(r.output)
        ? '; GoogleTest is missing: apt-get install libgtest-dev'
        : '';
      const compiler = /No CMAKE_CXX_COMPILER could be found|CMAKE_CXX_COMPILER not set/.test(r.output)
        ? '; no C++ compiler: apt-get install g++'
        : '';
      return {
        ok: false,
        command: r.command,
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
                  raw: r.output.slice(-4000),
                },
              ],
        ...(gtest || compiler ? { error: `CMake configure failed${gtest}${compiler}` } : {}),
      };
    }
    await writeFile(hashFile, hash);
  }
  const jobs = String(options.parallel ?? cpus().length);
  const b = await runProcess(options.cmake, ['--build', buildDir, '--parallel', jobs, ...options.buildArgs], {
    cwd: ctx.root,
    env,
    timeoutMs: ctx.timeoutMs,
    signal: ctx.signal,
  });
  log += b.output;
  if (b.exitCode === 0)
    return { ok: true, command: b.command, output: log, durationMs: Date.now() - started, diagnostics: [] };
  const diagnostics = parseCompilerOutput(b.output, ctx.root);
  return {
    ok: false,
    command: b.command,
    output: log,
    durationMs: Date.now() - started,
    diagnostics:
      diagnostics.length > 0
        ? diagnostics
        : [
            {
              source: 'build',
              severity: 'error',
              message: b.timedOut
                ? 'the build exceeded its time limit'
                : `the build failed (exit code ${b.exitCode})`,
              notes: [],
              fixIts: [],
              tests: [],
              raw: b.output.slice(-4000),
            },
          ],
  };
}
