import type { Registry } from './registry.js';

export interface SelectionPlan {
  /** CTest entries to run whole, by exact name. */
  entries: string[];
  /** Cases to run inside whole-binary entries (GoogleTest names), by entry. */
  cases: Map<string, string[]>;
  /** Ids that name no entry CTest knows. */
  unknown: string[];
}

/**
 * Resolves selected test ids against the CTest registry. An id is an entry's exact name, or
 * `<entry>::<case>` for a case inside a whole binary: the entry is the longest registered name
 * the id starts with followed by `::`, so entry names holding `::` themselves (`yaml-cpp::test`)
 * and case names holding `/` or `.` survive. A value-parametrized test's family stands for all
 * of its entries.
 */
export function planSelection(ids: readonly string[], registry: Registry): SelectionPlan {
  const entries = new Set<string>();
  const cases = new Map<string, string[]>();
  const unknown: string[] = [];
  for (const id of ids) {
    if (registry.has(id)) {
      entries.add(id);
      continue;
    }
    let entry: string | undefined;
    for (let at = id.lastIndexOf('::'); at > 0; at = id.lastIndexOf('::', at - 1)) {
      if (registry.has(id.slice(0, at))) {
        entry = id.slice(0, at);
        break;
      }
    }
    if (!entry) {
      const family = familyEntries(id, registry);
      if (family.length > 0) for (const name of family) entries.add(name);
      else unknown.push(id);
      continue;
    }
    const kase = id.slice(entry.length + 2);
    const reg = registry.get(entry)!;
    // a Unity test or a case of an entry that runs one case only: the entry is what can be re-run
    if (reg.gtestName || reg.gtestFilter || !/^\S+\.\S+$/.test(kase)) entries.add(entry);
    else cases.set(entry, [...(cases.get(entry) ?? []), kase]);
  }
  for (const entry of entries) cases.delete(entry);
  return { entries: [...entries], cases, unknown };
}

/**
 * The entries of a value-parametrized test asked for by its family (`Rows/Mul.Multiplies` for
 * `Rows/Mul.Multiplies/(2, 3, 7)`, as gtest_discover_tests names a case by its value): the engine
 * asks for them when a patch changed a case's values, which renames its entry.
 */
function familyEntries(id: string, registry: Registry): string[] {
  if (!/^[A-Za-z_]\w*\/[A-Za-z_]\w*\.[A-Za-z_]\w*$/.test(id)) return [];
  return [...registry.keys()].filter((name) => name.startsWith(`${id}/`));
}

/** CTest's `-R` takes a regular expression: each name escaped and anchored, so it matches itself only. */
export function exactNames(names: readonly string[]): string {
  return `^(${names.map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})$`;
}
