import { readdir, readFile } from 'node:fs/promises';
import { join, posix } from 'node:path';

/** How the project maps bare import names to its own files: tsconfig `paths` and Jest's `moduleNameMapper`. */
export interface ModulePaths {
  /** `baseUrl` relative to the root, when tsconfig/jsconfig sets one. */
  baseUrl?: string;
  /** tsconfig `paths`: a pattern with at most one `*` and its targets, relative to the root. */
  paths: Array<{ pattern: string; targets: string[] }>;
  /** Jest's `moduleNameMapper`: a regular expression and its replacement. */
  mappers: Array<{ regex: RegExp; replacement: string }>;
}

/** JSON with comments and trailing commas, as tsconfig.json is written. */
function parseJsonc(text: string): unknown {
  const stripped = text
    .replace(/("(?:[^"\\]|\\.)*")|\/\/[^\n]*|\/\*[\s\S]*?\*\//g, (m, str: string | undefined) => str ?? '')
    .replace(/,(\s*[}\]])/g, '$1');
  return JSON.parse(stripped);
}

async function tsconfigPaths(root: string): Promise<Pick<ModulePaths, 'baseUrl' | 'paths'>> {
  for (const name of ['tsconfig.json', 'jsconfig.json']) {
    const text = await readFile(join(root, name), 'utf8').catch(() => undefined);
    if (!text) continue;
    try {
      const config = parseJsonc(text) as {
        compilerOptions?: { baseUrl?: string; paths?: Record<string, string[]> };
      };
      const base = config.compilerOptions?.baseUrl ?? '.';
      const paths = Object.entries(config.compilerOptions?.paths ?? {}).map(([pattern, targets]) => ({
        pattern,
        targets: targets.map((t) => posix.normalize(posix.join(base, t))),
      }));
      return { ...(config.compilerOptions?.baseUrl ? { baseUrl: posix.normalize(base) } : {}), paths };
    } catch {
      // an unreadable tsconfig maps nothing
    }
  }
  return { paths: [] };
}

/** `moduleNameMapper` from package.json's `jest` or a jest.config file (read as text: it is code). */
async function jestMappers(root: string): Promise<ModulePaths['mappers']> {
  const entries: Array<[string, string]> = [];
  const pkg = await readFile(join(root, 'package.json'), 'utf8').catch(() => undefined);
  if (pkg) {
    try {
      const mapper = (JSON.parse(pkg) as { jest?: { moduleNameMapper?: Record<string, string | string[]> } })
        .jest?.moduleNameMapper;
      for (const [k, v] of Object.entries(mapper ?? {})) entries.push([k, Array.isArray(v) ? v[0]! : v]);
    } catch {
      // not JSON: nothing mapped
    }
  }
  const configs = (await readdir(root).catch(() => [])).filter((f) =>
    /^jest\.config\.(js|cjs|mjs|ts|json)$/.test(f),
  );
  for (const file of configs) {
    const text = await readFile(join(root, file), 'utf8').catch(() => '');
    const block = /moduleNameMapper\s*["']?\s*:\s*\{([\s\S]*?)\}/.exec(text)?.[1] ?? '';
    for (const m of block.matchAll(/(["'`])((?:\\.|(?!\1).)*)\1\s*:\s*(["'`])((?:\\.|(?!\3).)*)\3/g))
      entries.push([m[2]!.replace(/\\\\/g, '\\'), m[4]!]);
  }
  return entries.flatMap(([k, v]) => {
    try {
      return [{ regex: new RegExp(k), replacement: v.replace(/<rootDir>\/?/g, '') }];
    } catch {
      return [];
    }
  });
}

/** The project's module paths, read once per scope. */
export async function readModulePaths(root: string): Promise<ModulePaths> {
  const [ts, mappers] = await Promise.all([tsconfigPaths(root), jestMappers(root)]);
  return { ...ts, mappers };
}

/** Root-relative candidates for a bare import name, in the order Jest and TypeScript try them. */
export function aliasCandidates(source: string, paths: ModulePaths): string[] {
  const out: string[] = [];
  for (const { regex, replacement } of paths.mappers) {
    const m = regex.exec(source);
    if (m) out.push(posix.normalize(replacement.replace(/\$(\d+)/g, (_, i: string) => m[Number(i)] ?? '')));
  }
  for (const { pattern, targets } of paths.paths) {
    const star = pattern.indexOf('*');
    if (star < 0) {
      if (pattern === source) out.push(...targets);
      continue;
    }
    const [prefix, suffix] = [pattern.slice(0, star), pattern.slice(star + 1)];
    if (
      source.startsWith(prefix) &&
      source.endsWith(suffix) &&
      source.length >= prefix.length + suffix.length
    ) {
      const middle = source.slice(prefix.length, source.length - suffix.length);
      out.push(...targets.map((t) => t.replace('*', middle)));
    }
  }
  if (paths.baseUrl !== undefined) out.push(posix.join(paths.baseUrl, source));
  return out.map((p) => p.replace(/^\.\//, ''));
}
