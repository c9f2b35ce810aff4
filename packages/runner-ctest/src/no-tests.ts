import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { readProjectCmake } from './cmake-scan.js';
import { testSwitches } from './test-switches.js';

const BASE = 'CTest ran no test';

/**
 * Why CTest found no test, when the project's CMake files say: the switches that turn its tests
 * on (`option(YAML_CPP_BUILD_TESTS ... OFF)`, `cmake_dependent_option`, `BUILD_TESTING`) that
 * are still off in the build folder, and the configureArgs that turn them on. `suture init`
 * reads the same switches (detect.ts).
 */
export async function noTestsHint(root: string, buildDir: string): Promise<string> {
  const cache = await readFile(join(buildDir, 'CMakeCache.txt'), 'utf8').catch(() => '');
  const cached = (name: string): string | undefined =>
    new RegExp(`^${name}:\\w+=(.*)$`, 'm').exec(cache)?.[1]?.trim();
  const off = (name: string): boolean =>
    /^(?:0|OFF|NO|FALSE|N|IGNORE|NOTFOUND|.*-NOTFOUND)?$/i.test(cached(name) ?? '');
  const switches = testSwitches((await readProjectCmake(root)) ?? []).filter(
    (s) => s.kind === 'hard-coded' || off(s.name),
  );
  const configurable = switches.filter((s) => s.kind === 'configurable');
  const hard = switches.filter((s) => s.kind === 'hard-coded');
  if (switches.length === 0)
    return `${BASE}: does the project call enable_testing() (or include(CTest)) and add_test()/gtest_discover_tests()?`;
  const parts: string[] = [];
  if (configurable.length > 0)
    parts.push(
      `the tests are behind CMake options that are OFF: ${configurable
        .map((s) => `${s.name} (${s.file}:${s.line})`)
        .join(', ')}. Turn them on with the runner option "configureArgs": [${configurable
        .map((s) => `"-D${s.name}=ON"`)
        .join(', ')}]`,
    );
  for (const s of hard)
    parts.push(
      `${s.file}:${s.line} sets ${s.name} OFF as a normal variable, which no -D${s.name}=ON overrides; set it only when it is not defined yet (if(NOT DEFINED ${s.name}))`,
    );
  return `${BASE}: ${parts.join('; ')}`;
}
