import type { HealConfig } from '../api/contracts/config.js';
import type { Scope, ScopeInput } from '../api/contracts/failure.js';
import { ScopeSchema } from '../api/contracts/failure.js';
import type { Analyzer } from '../api/plugin.js';
import { deniedBy, matcher, normalizeEditPath } from '../safety/paths.js';
import { picomatch } from '../text/glob.js';
import { isInfrastructureFile } from './infrastructure.js';
import { isTestFile } from './test-files.js';

/**
 * The editable scope: the analyzer's scope intersected with the allowed paths, minus the denied
 * paths and the side the edit policy protects. Removed files keep their reason in `excluded`.
 */
export function applyScopePolicy(raw: ScopeInput, heal: HealConfig, analyzer?: Analyzer): Scope {
  const scope = ScopeSchema.parse(raw);
  const allowed = matcher(heal.allowedPaths);
  const out: Scope = {
    entries: [],
    excluded: [...scope.excluded],
    ...(scope.incomplete ? { incomplete: scope.incomplete } : {}),
  };
  for (const entry of scope.entries) {
    const norm = normalizeEditPath(entry.file);
    if (!norm.ok) {
      out.excluded.push({ file: entry.file, reason: norm.reason });
      continue;
    }
    const file = norm.path;
    const denied = deniedBy(file, heal.deniedPaths);
    if (denied) {
      out.excluded.push({ file, reason: `denied by "${denied}"` });
      continue;
    }
    if (!allowed(file)) {
      out.excluded.push({ file, reason: 'outside heal.allowedPaths' });
      continue;
    }
    if (!heal.allowTestWeakening && isInfrastructureFile(file)) {
      out.excluded.push({
        file,
        reason:
          'test infrastructure (it decides which tests run or how they pass); heal.allowTestWeakening allows it',
      });
      continue;
    }
    const test = isTestFile(file, analyzer, scope);
    if (test && heal.editable === 'source') {
      out.excluded.push({ file, reason: 'a test file, and heal.editable is "source"' });
      continue;
    }
    if (!test && heal.editable === 'tests') {
      out.excluded.push({ file, reason: 'code under test, and heal.editable is "tests"' });
      continue;
    }
    if (!out.entries.some((e) => e.file === file)) out.entries.push({ ...entry, file });
  }
  return out;
}

/**
 * The scope without the project's private files (`.env*`, credential files, keys, the config's
 * `secrets.files`): a fixer never gets their bytes in a source slice, nor may it edit them. Each
 * is kept in `excluded` with the reason.
 */
export function withoutPrivateFiles(raw: ScopeInput, privatePaths: readonly string[]): ScopeInput {
  if (privatePaths.length === 0) return raw;
  const isPrivate = picomatch([...privatePaths], { dot: true });
  const entries = raw.entries.filter((e) => !isPrivate(e.file.replace(/^\.\//, '')));
  if (entries.length === raw.entries.length) return raw;
  const excluded = raw.entries
    .filter((e) => !entries.includes(e))
    .map((e) => ({
      file: e.file,
      reason: 'a private file (secrets.files, credentials, keys): never shown to a fixer',
    }));
  return { ...raw, entries, excluded: [...(raw.excluded ?? []), ...excluded] };
}
