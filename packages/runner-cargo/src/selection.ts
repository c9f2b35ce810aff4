import type { CargoMetadata } from './metadata.js';
import type { ResolvedCargoOptions } from './options.js';
import type { PassPlan } from './pass.js';
import { splitId, targetFlags } from './targets.js';

/**
 * The passes that run exactly the selected tests: one per package for its unit and integration
 * tests (`-p calc --lib --test api -- --exact tests::adds api_adds`), one per package for its
 * doctests (`--doc` cannot share a pass with other targets). A name that two of the pass's
 * binaries share runs in both; the run reports only the selected ids.
 */
export function selectionPlans(
  meta: CargoMetadata,
  selection: readonly string[],
  options: ResolvedCargoOptions,
): PassPlan[] {
  const groups = new Map<string, { flags: Set<string>; names: Set<string>; doc: boolean; pkg: string }>();
  for (const id of selection) {
    const split = splitId(meta, id);
    if (!split) continue;
    const flags = targetFlags(meta, split.section);
    if (!flags) continue;
    const pkg = flags[1]!;
    const doc = split.section.kind === 'doc';
    const key = `${pkg}\0${doc}`;
    const g = groups.get(key) ?? { flags: new Set<string>(), names: new Set<string>(), doc, pkg };
    g.flags.add(JSON.stringify(flags.slice(2)));
    g.names.add(split.name);
    groups.set(key, g);
  }
  // options.args may name packages or targets of their own; a selection names its own
  const args = stripSelectionArgs(options.args);
  return [...groups.values()].map((g) => ({
    cargoArgs: [...args, '-p', g.pkg, ...[...g.flags].flatMap((f) => JSON.parse(f) as string[])],
    testArgs: [...options.testArgs, '--exact', ...g.names],
  }));
}

const TARGET_FLAGS = new Set([
  '--lib',
  '--bins',
  '--tests',
  '--examples',
  '--benches',
  '--all-targets',
  '--doc',
  '--workspace',
  '--all',
]);
const VALUED = new Set(['-p', '--package', '--bin', '--test', '--example', '--bench', '--exclude']);

/** cargo arguments without the ones that choose packages and targets. */
function stripSelectionArgs(args: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (TARGET_FLAGS.has(a)) continue;
    if (VALUED.has(a)) {
      i++;
      continue;
    }
    if ([...VALUED].some((v) => a.startsWith(`${v}=`))) continue;
    out.push(a);
  }
  return out;
}
