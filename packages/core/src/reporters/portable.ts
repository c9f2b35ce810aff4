import { realpathSync } from 'node:fs';
import type { GateReport } from '../api/contracts/report.js';

const escapeRegex = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Every mention of the repository root in a text made repository-relative: `<root>/web/a.js`
 * becomes `web/a.js` and the root alone `.`. A root that merely starts another folder's name
 * (`/repo` in `/repo-2`) is left alone.
 */
export function relativeTo(root: string): (text: string) => string {
  const base = root.replace(/\/+$/, '');
  if (base === '' || base === '.') return (text) => text;
  const inside = new RegExp(`${escapeRegex(base)}/`, 'g');
  const alone = new RegExp(`${escapeRegex(base)}(?![\\w.@+-])`, 'g');
  return (text) => (text.includes(base) ? text.replace(inside, '').replace(alone, '.') : text);
}

function mapStrings<T>(value: T, map: (text: string) => string): T {
  if (typeof value === 'string') return map(value) as T;
  if (Array.isArray(value)) return value.map((v) => mapStrings(v, map)) as T;
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = mapStrings(v, map);
    return out as T;
  }
  return value;
}

/**
 * The report as the files of a run hold it: no path of the machine it ran on. The repository
 * root, project roots, the run folder and every trace, command and message that names a file
 * under the root are repository-relative, so an artifact downloaded from CI, a report attached to
 * an issue or a merged shard says nothing of where the checkout lay. `roots` are the spellings of
 * the root to take out (the path given and, when it differs, its real path).
 */
export function portableReport(report: GateReport, roots: readonly string[]): GateReport {
  return mapStrings(report, portableText(roots));
}

/** `relativeTo` for each spelling of the root, the longest first (a real path may extend a link's). */
export function portableText(roots: readonly string[]): (text: string) => string {
  const maps = [...new Set(roots)].sort((a, b) => b.length - a.length).map(relativeTo);
  return (text) => maps.reduce((t, m) => m(t), text);
}

/** The root as given and, when a symbolic link leads to it, as the tools that ran in it print it. */
export function rootSpellings(root: string): string[] {
  try {
    const real = realpathSync(root);
    return real === root ? [root] : [root, real];
  } catch {
    return [root];
  }
}
