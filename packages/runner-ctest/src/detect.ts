import { basename } from 'node:path';
import type { DetectedProject } from '@suture/core';
import { readProjectCmake, type CmakeCommand } from './cmake-scan.js';
import { testSwitches, type TestSwitch } from './test-switches.js';

const TESTING = new Set(['enable_testing', 'add_test', 'gtest_discover_tests', 'gtest_add_tests']);

function testingCall(commands: readonly CmakeCommand[]): string | undefined {
  for (const cmd of commands) {
    if (TESTING.has(cmd.name)) return cmd.name;
    if (cmd.name === 'include' && cmd.args[0]?.toUpperCase() === 'CTEST') return 'include(CTest)';
  }
  return undefined;
}

function note(s: TestSwitch): string {
  return s.kind === 'configurable'
    ? `the tests are behind ${s.name}, OFF by default (${s.file}:${s.line}), so CTest would run no test: configureArgs -D${s.name}=ON turns them on`
    : `${s.file}:${s.line} sets ${s.name} OFF as a normal variable, which no -D${s.name}=ON overrides, so CTest will run no test; set it only when it is not defined yet (if(NOT DEFINED ${s.name}))`;
}

/**
 * A folder whose CMakeLists.txt (or a project file it includes) enables testing. Test switches
 * that are off on a plain configure (`option(FOO_BUILD_TESTS ... OFF)`, `cmake_dependent_option`,
 * `BUILD_TESTING` set OFF) are turned on through `configureArgs`, and each one gets a note.
 */
export async function detectCtest(dir: string): Promise<DetectedProject | null> {
  const commands = await readProjectCmake(dir);
  if (!commands) return null;
  const hit = testingCall(commands);
  if (!hit) return null;
  const switches = testSwitches(commands);
  const on = switches.filter((s) => s.kind === 'configurable').map((s) => `-D${s.name}=ON`);
  return {
    name: basename(dir),
    reason: `CMakeLists.txt calls ${hit}`,
    ...(on.length > 0 ? { options: { configureArgs: on } } : {}),
    ...(switches.length > 0 ? { notes: switches.map(note) } : {}),
  };
}
