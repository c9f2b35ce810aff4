import type { CmakeCommand } from './cmake-scan.js';

/** A CMake variable that turns a project's tests on and is off on a plain configure. */
export interface TestSwitch {
  name: string;
  /** Where it gets its default: listfile (relative to the project root) and line. */
  file: string;
  line: number;
  /**
   * `configurable`: a `-D<name>=ON` on the configure line turns it on. `hard-coded`: an
   * unconditional `set(<name> OFF)` (a normal variable) hides any cache value, so no -D helps.
   */
  kind: 'configurable' | 'hard-coded';
}

// Words before TESTS that name a kind of test a plain run should not switch on (slow, needs
// hardware or services) or that invert the switch (FOO_DISABLE_TESTS=OFF means tests are on).
const NOT_PLAIN = new Set(
  'INTEGRATION SLOW PERF PERFORMANCE BENCH BENCHMARK BENCHMARKS FUZZ FUZZING STRESS LONG NETWORK E2E SYSTEM INSTALL INSTALLED EXPENSIVE EXTENDED EXHAUSTIVE GPU CUDA MPI DISABLE NO SKIP WITHOUT'.split(
    ' ',
  ),
);

/** `FOO_BUILD_TESTS`, `BUILD_TESTING`, `gtest_build_tests`, `FOO_UNIT_TESTS`: the switch of a project's own tests. */
export function isTestSwitch(name: string): boolean {
  const words = name.toUpperCase().split('_');
  const last = words[words.length - 1]!;
  if (!['TEST', 'TESTS', 'TESTING', 'UNITTESTS'].includes(last)) return false;
  return words.length < 2 || !NOT_PLAIN.has(words[words.length - 2]!);
}

function isFalse(value: string): boolean {
  return /^(0|OFF|NO|FALSE|N|IGNORE|NOTFOUND|.*-NOTFOUND)?$/i.test(value);
}

/** 'off', 'on', or undefined when the default comes from a variable suture cannot evaluate. */
function constant(value: string | undefined): 'off' | 'on' | undefined {
  if (value === undefined) return 'off';
  if (value === '${PROJECT_IS_TOP_LEVEL}') return 'on';
  if (value.includes('${')) return undefined;
  return isFalse(value) ? 'off' : 'on';
}

interface Definition {
  name: string;
  value: 'off' | 'on' | undefined;
  /** A cache entry (option, cmake_dependent_option, set(... CACHE ...)), which -D overrides. */
  cache: boolean;
  cmd: CmakeCommand;
}

function definition(cmd: CmakeCommand): Definition | undefined {
  const [name, ...rest] = cmd.args;
  if (cmd.name === 'include' && name?.toUpperCase() === 'CTEST')
    return { name: 'BUILD_TESTING', value: 'on', cache: true, cmd };
  if (!name || !isTestSwitch(name)) return undefined;
  if (cmd.name === 'option') return { name, value: constant(rest[1]), cache: true, cmd };
  if (cmd.name === 'cmake_dependent_option')
    return { name, value: constant(rest[1] ?? 'ON'), cache: true, cmd };
  if (cmd.name === 'set' && rest.length > 0 && !rest.includes('PARENT_SCOPE')) {
    const cache = rest.includes('CACHE');
    return { name, value: constant(rest[0]), cache, cmd };
  }
  return undefined;
}

/**
 * The test switches of a project that are off on a plain configure. The first cache definition
 * of a name wins, as in CMake (a later option() does not change an existing cache entry).
 */
export function testSwitches(commands: readonly CmakeCommand[]): TestSwitch[] {
  const byName = new Map<string, Definition[]>();
  for (const cmd of commands) {
    const def = definition(cmd);
    if (def) byName.set(def.name, [...(byName.get(def.name) ?? []), def]);
  }
  const out: TestSwitch[] = [];
  for (const [name, defs] of byName) {
    const hard = defs.find((d) => !d.cache && !d.cmd.conditional && d.value === 'off');
    const first = defs.find((d) => d.cache) ?? defs.find((d) => !d.cache && d.cmd.conditional);
    const at = hard ?? (first?.value === 'off' ? first : undefined);
    if (at)
      out.push({ name, file: at.cmd.file, line: at.cmd.line, kind: hard ? 'hard-coded' : 'configurable' });
  }
  return out;
}
