import { readdir, readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { DetectedProject } from '@suture/core';

/** A package with Jest in its dependencies or a `jest` key, or a jest.config.* file. */
export async function detectJest(dir: string): Promise<DetectedProject | null> {
  const name = basename(dir);
  const files = await readdir(dir).catch(() => [] as string[]);
  const config = files.find((f) => /^jest\.config\.(js|ts|mjs|cjs|json)$/.test(f));
  if (config) return { name, reason: config };
  const text = await readFile(join(dir, 'package.json'), 'utf8').catch(() => undefined);
  if (!text) return null;
  try {
    const pkg = JSON.parse(text) as {
      jest?: unknown;
      dependencies?: Record<string, string>;
      devDependencies?: Record<string, string>;
      name?: string;
      scripts?: Record<string, string>;
    };
    if (pkg.jest) return { name, reason: 'package.json "jest" key' };
    // a Vitest project that keeps jest among its dependencies (a migration, a helper) is not a Jest one
    const test = pkg.scripts?.test ?? '';
    const vitest = pkg.devDependencies?.vitest || pkg.dependencies?.vitest || /\bvitest\b/.test(test);
    if (vitest && !/\bjest\b/.test(test)) return null;
    if (pkg.devDependencies?.jest || pkg.dependencies?.jest)
      return { name, reason: 'jest in package.json dependencies' };
  } catch {
    return null;
  }
  return null;
}
