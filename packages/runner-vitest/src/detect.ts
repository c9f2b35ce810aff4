import { readdir, readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { DetectedProject } from '@suture/core';

/** Vitest's own config files, and Vite's, which hold a `test` section when Vitest reads them. */
const VITEST_CONFIG = /^vitest\.(?:config|workspace)\.(?:[cm]?[jt]s|json)$/;
const VITE_CONFIG = /^vite\.config\.[cm]?[jt]s$/;

interface PackageJson {
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  scripts?: Record<string, string>;
}

/** Whether a package.json names Vitest: a dependency, or a script that runs `vitest`. */
export function packageUsesVitest(pkg: PackageJson): string | undefined {
  if (pkg.devDependencies?.vitest || pkg.dependencies?.vitest) return 'vitest in package.json dependencies';
  const script = Object.entries(pkg.scripts ?? {}).find(([, s]) => /(?:^|[\s;&|(])vitest(?:\s|$)/.test(s));
  return script ? `package.json script "${script[0]}" runs vitest` : undefined;
}

/** A package with a vitest.config.* (or a vite.config.* with a `test` section), or Vitest in its package.json. */
export async function detectVitest(dir: string): Promise<DetectedProject | null> {
  const name = basename(dir);
  const files = await readdir(dir).catch(() => [] as string[]);
  const config = files.find((f) => VITEST_CONFIG.test(f));
  if (config) return { name, reason: config };
  const text = await readFile(join(dir, 'package.json'), 'utf8').catch(() => undefined);
  let pkg: PackageJson | undefined;
  try {
    pkg = text ? (JSON.parse(text) as PackageJson) : undefined;
  } catch {
    return null;
  }
  const vite = files.find((f) => VITE_CONFIG.test(f));
  if (vite && pkg && packageUsesVitest(pkg)) {
    const source = await readFile(join(dir, vite), 'utf8').catch(() => '');
    if (/\btest\s*:/.test(source)) return { name, reason: `${vite} with a test section` };
  }
  const reason = pkg && packageUsesVitest(pkg);
  return reason ? { name, reason } : null;
}
