import { runProcess, type RunContext } from '@suture/core';
import { buildEnv } from './build.js';

export interface Registered {
  command: string[];
  /** The one gtest case behind a gtest_discover_tests entry (its `--gtest_filter=`), if any. */
  gtestName?: string;
  /** The entry's own `--gtest_filter=`, when it selects more than one case (a pattern). */
  gtestFilter?: string;
  /** The entry's TIMEOUT property, in seconds. */
  timeoutS?: number;
  /** WILL_FAIL or a PASS/FAIL regular expression decides its result, not its exit code. */
  ownVerdict?: boolean;
  /** The entry names its own GoogleTest report file (`--gtest_output`, GTEST_OUTPUT in its ENVIRONMENT). */
  ownReport?: boolean;
}

export type Registry = Map<string, Registered>;

interface JsonTest {
  name: string;
  command?: string[];
  properties?: Array<{ name: string; value: unknown }>;
}

/** The entries CTest knows, from `ctest --show-only=json-v1` (exact names, commands, properties). */
export async function readRegistry(ctest: string, buildDir: string, ctx: RunContext): Promise<Registry> {
  const r = await runProcess(ctest, ['--test-dir', buildDir, '--show-only=json-v1'], {
    cwd: ctx.root,
    env: buildEnv(),
    timeoutMs: 60_000,
    signal: ctx.signal,
    tailBytes: 64 * 1024 * 1024,
  });
  const out: Registry = new Map();
  let json: { tests?: JsonTest[] };
  try {
    json = JSON.parse(r.output) as { tests?: JsonTest[] };
  } catch {
    return out; // an old ctest without json-v1: entries are still run by name, cases are not split
  }
  for (const t of json.tests ?? []) {
    const filter = t.command?.find((a) => a.startsWith('--gtest_filter='))?.slice('--gtest_filter='.length);
    const prop = (name: string): unknown => t.properties?.find((p) => p.name === name)?.value;
    const timeout = Number(prop('TIMEOUT'));
    const env = prop('ENVIRONMENT');
    const ownReport =
      (t.command ?? []).some((a) => a.startsWith('--gtest_output')) ||
      (Array.isArray(env) && env.some((v) => String(v).startsWith('GTEST_OUTPUT=')));
    const single = filter !== undefined && !/[*?:-]/.test(filter);
    out.set(t.name, {
      command: t.command ?? [],
      ...(single ? { gtestName: filter } : filter ? { gtestFilter: filter } : {}),
      ...(timeout > 0 ? { timeoutS: timeout } : {}),
      ...(prop('WILL_FAIL') === true ||
      prop('PASS_REGULAR_EXPRESSION') !== undefined ||
      prop('FAIL_REGULAR_EXPRESSION') !== undefined
        ? { ownVerdict: true }
        : {}),
      ...(ownReport ? { ownReport: true } : {}),
    });
  }
  return out;
}

/** The command of an entry without the gtest filter CTest's discovery gave it: the whole binary. */
export function binaryCommand(command: readonly string[]): string[] {
  return command.filter((a) => !a.startsWith('--gtest_filter=') && a !== '--gtest_also_run_disabled_tests');
}
