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

interface CompilerPaths {
  baseUrl?: string;
  paths?: Record<string, string[]>;
}

interface TsConfig {
  extends?: string | string[];
  compilerOptions?: CompilerPaths;
}

const MAX_EXTENDS = 8;

/**
 * `baseUrl` and `paths` of a tsconfig and the configs it extends (files of the project, by
 * relative path), as TypeScript merges them: the nearest setting wins, a `baseUrl` is relative to
 * the config that sets it, and `paths` without a `baseUrl` are relative to the config that sets them.
 */
async function mergedPaths(
  root: string,
  file: string,
  depth = 0,
): Promise<{ baseUrl?: string; paths?: { base: string; map: Record<string, string[]> } } | undefined> {
  const text = await readFile(join(root, file), 'utf8').catch(() => undefined);
  if (text === undefined) return undefined;
  let config: TsConfig;
  try {
    config = parseJsonc(text) as TsConfig;
  } catch {
    // an unreadable tsconfig maps nothing
    return undefined;
  }
  const dir = posix.dirname(file);
  const parents = [config.extends ?? []].flat().filter((e) => e.startsWith('.'));
  let merged: Awaited<ReturnType<typeof mergedPaths>> = {};
  if (depth < MAX_EXTENDS)
    for (const parent of parents) {
      const target = posix.normalize(posix.join(dir, parent.endsWith('.json') ? parent : `${parent}.json`));
      merged = { ...merged, ...(await mergedPaths(root, target, depth + 1)) };
    }
  const own = config.compilerOptions ?? {};
  if (own.baseUrl !== undefined) merged.baseUrl = posix.normalize(posix.join(dir, own.baseUrl));
  if (own.paths) merged.paths = { base: dir, map: own.paths };
  return merged;
}

async function tsconfigPaths(root: string): Promise<Pick<ModulePaths, 'baseUrl' | 'paths'>> {
  for (const name of ['tsconfig.json', 'jsconfig.json']) {
    const merged = await mergedPaths(root, name);
    if (!merged) continue;
    const base = merged.baseUrl ?? merged.paths?.base ?? '.';
    const paths = Object.entries(merged.paths?.map ?? {}).map(([pattern, targets]) => ({
      pattern,
      targets: targets.map((t) => posix.normalize(posix.join(base, t))),
    }));
    return { ...(merged.baseUrl !== undefined ? { baseUrl: merged.baseUrl } : {}), paths };
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
