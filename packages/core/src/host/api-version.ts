import { readFileSync } from 'node:fs';
import { API_VERSION, MIN_API_VERSION, type ApiRange } from '../api/plugin.js';
import { packageFile } from '../package-root.js';

/** What a core speaks: the oldest and the newest plugin API it loads. */
export const CORE_API_RANGE: ApiRange = { min: MIN_API_VERSION, max: API_VERSION };

export type ApiCheck =
  | { ok: true; /** The newest version both sides speak. */ version: number }
  | {
      ok: false;
      /** Who has to move: the plugin is older than core loads, core is older than the plugin needs, or the declaration itself is wrong. */
      upgrade: 'plugin' | 'core' | 'declaration';
      reason: string;
    };

const isVersion = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 1;
const show = (r: ApiRange): string => (r.min === r.max ? `API ${r.min}` : `APIs ${r.min} to ${r.max}`);

/** The range a plugin declares: `apiRange` when present, else exactly `apiVersion`. */
export function declaredRange(plugin: { apiVersion?: unknown; apiRange?: unknown }): ApiRange | string {
  if (!isVersion(plugin.apiVersion))
    return `"apiVersion" must be a positive integer (the API_VERSION exported by @suture/core), got ${JSON.stringify(plugin.apiVersion) ?? 'nothing'}`;
  if (plugin.apiRange === undefined) return { min: plugin.apiVersion, max: plugin.apiVersion };
  const range = plugin.apiRange as Partial<ApiRange> | null;
  if (
    !range ||
    typeof range !== 'object' ||
    !isVersion(range.min) ||
    !isVersion(range.max) ||
    range.min > range.max
  )
    return `"apiRange" must be { min, max } with positive integers and min <= max, got ${JSON.stringify(plugin.apiRange)}`;
  if (plugin.apiVersion < range.min || plugin.apiVersion > range.max)
    return `"apiVersion" ${plugin.apiVersion} lies outside its own "apiRange" ${range.min} to ${range.max}`;
  return { min: range.min, max: range.max };
}

/**
 * Whether a plugin declaring `apiVersion` (and maybe `apiRange`) can be loaded by a core speaking
 * `core`, and which version they share. The answer says who must upgrade when they do not meet.
 */
export function checkApiVersion(
  plugin: { apiVersion?: unknown; apiRange?: unknown },
  core: ApiRange = CORE_API_RANGE,
): ApiCheck {
  const wanted = declaredRange(plugin);
  if (typeof wanted === 'string') return { ok: false, upgrade: 'declaration', reason: wanted };
  if (wanted.max < core.min)
    return {
      ok: false,
      upgrade: 'plugin',
      reason: `was written for plugin ${show(wanted)}, which this @suture/core ${coreVersion()} no longer loads (it speaks ${show(core)})`,
    };
  if (wanted.min > core.max)
    return {
      ok: false,
      upgrade: 'core',
      reason: `needs plugin ${show(wanted)}, but this @suture/core ${coreVersion()} speaks ${show(core)}`,
    };
  return { ok: true, version: Math.min(wanted.max, core.max) };
}

/** The next step for an incompatible plugin, with the npm command when there is one. */
export function apiUpgradeHint(
  check: Exclude<ApiCheck, { ok: true }>,
  plugin: { id: string; isPath: boolean },
): string {
  if (check.upgrade === 'declaration')
    return 'declare `apiVersion: API_VERSION` imported from @suture/core (docs/compatibility.md)';
  if (check.upgrade === 'core')
    return 'upgrade suture: `npm install -D @suture/cli@latest @suture/core@latest` (or use a release of the plugin made for this core)';
  if (plugin.isPath)
    return `update ${plugin.id} to plugin API ${API_VERSION}; docs/compatibility.md lists what changed between versions`;
  return `upgrade the plugin: \`npm install -D ${plugin.id}@latest\` (or keep a @suture/core that still speaks its API)`;
}

let cached: string | undefined;
/** The version of this @suture/core, for messages ("0.1.0"). */
export function coreVersion(): string {
  if (cached === undefined) {
    try {
      const pkg = JSON.parse(readFileSync(packageFile('package.json'), 'utf8')) as {
        version?: string;
      };
      cached = pkg.version ?? 'unknown';
    } catch {
      cached = 'unknown';
    }
  }
  return cached;
}
