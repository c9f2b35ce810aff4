import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

/** The part of a test framework's test context that skips the running test (vitest's has it). */
export interface SkippableTest {
  skip(note: string): void;
}

export interface OptionalToolchain {
  /** Executable looked up on PATH, e.g. `clang++`. */
  command: string;
  /** The command that installs it, e.g. `apt-get install clang`. */
  install: string;
}

/** Set to 1 where every toolchain is installed (CI): a missing one then fails instead of skipping. */
export const REQUIRE_TOOLCHAINS_ENV = 'SUTURE_REQUIRE_TOOLCHAINS';

function onPath(command: string, env: NodeJS.ProcessEnv): boolean {
  const exts = process.platform === 'win32' ? (env.PATHEXT ?? '.EXE;.CMD').split(';') : [''];
  return (env.PATH ?? '')
    .split(delimiter)
    .filter(Boolean)
    .some((dir) =>
      exts.some((ext) => {
        try {
          accessSync(join(dir, command + ext), constants.X_OK);
          return true;
        } catch {
          return false;
        }
      }),
    );
}

/**
 * Skips the running test when an optional toolchain is not on PATH, with the command that
 * installs it, so `npm test` passes on a machine that has only the required ones. Where
 * SUTURE_REQUIRE_TOOLCHAINS=1 (CI, which installs everything) it throws instead: there a skip
 * would hide a test that never ran.
 */
export function requireToolchain(
  test: SkippableTest,
  toolchain: OptionalToolchain,
  env: NodeJS.ProcessEnv = process.env,
): void {
  if (onPath(toolchain.command, env)) return;
  const missing = `${toolchain.command} is not installed (${toolchain.install})`;
  if (env[REQUIRE_TOOLCHAINS_ENV] === '1')
    throw new Error(`${missing}; ${REQUIRE_TOOLCHAINS_ENV}=1 requires every toolchain a test uses`);
  process.stderr.write(`skipped: ${missing}\n`);
  test.skip(missing);
}
