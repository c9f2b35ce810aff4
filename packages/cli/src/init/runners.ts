import { readdir, readFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import {
  errorMessage,
  loadPlugin,
  PLUGIN_ALIASES,
  resolvePackageEntry,
  type PluginRef,
} from '@suture/core/internal';
import type { PluginSpec, Runner } from '@suture/core';

/** The keyword in a package.json that makes `suture init` ask the package to detect projects. */
export const RUNNER_KEYWORD = 'suture-runner';

const FIRST_PARTY = ['pytest', 'ctest', 'jest', 'vitest', 'go', 'cargo'] as const;

/** A runner `suture init` asks about every folder. */
export interface InitRunner {
  /** How the written config names it: an alias, a package name, or what an existing config wrote. */
  spec: string;
  /** The package or path it resolves to. */
  id: string;
  /** Options an existing config gave it (written under the detected ones). */
  options: Record<string, unknown>;
  runner: Runner;
}

export interface FoundRunners {
  runners: InitRunner[];
  /** Runners that could not be loaded, each with what to do. */
  problems: string[];
}

async function packageJson(dir: string): Promise<{ name?: unknown; keywords?: unknown } | undefined> {
  const text = await readFile(join(dir, 'package.json'), 'utf8').catch(() => '');
  // most packages do not mention suture at all: skip parsing them
  if (!text.includes(RUNNER_KEYWORD)) return undefined;
  try {
    return JSON.parse(text) as { name?: unknown; keywords?: unknown };
  } catch {
    return undefined;
  }
}

/**
 * Packages in the node_modules folders from `cwd` up to the repository's top whose package.json
 * lists the keyword `suture-runner`, nearest first.
 */
export async function keywordRunners(cwd: string, top: string | undefined): Promise<string[]> {
  const names: string[] = [];
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    const modules = join(dir, 'node_modules');
    const entries = await readdir(modules).catch(() => [] as string[]);
    const packages = (
      await Promise.all(
        entries
          .filter((e) => !e.startsWith('.'))
          .map(async (e) =>
            e.startsWith('@')
              ? (await readdir(join(modules, e)).catch(() => [] as string[])).map((s) => `${e}/${s}`)
              : [e],
          ),
      )
    ).flat();
    for (const name of packages.sort()) {
      const pkg = await packageJson(join(modules, name));
      if (Array.isArray(pkg?.keywords) && pkg.keywords.includes(RUNNER_KEYWORD) && !names.includes(name))
        names.push(name);
    }
    if (!top || relative(top, dir) === '' || relative(top, dir).startsWith('..') || dirname(dir) === dir)
      break;
  }
  return names;
}

/**
 * Every runner `suture init` can ask: the first-party runners installed here, packages in the
 * repository's node_modules that declare the `suture-runner` keyword, and the runners an existing
 * config names (packages or local files).
 */
export async function findRunners(
  cwd: string,
  top: string | undefined,
  configured: ReadonlyArray<{ spec: PluginSpec; keyPath: string; configFile: string }>,
): Promise<FoundRunners> {
  const wanted: Array<{ ref: PluginRef; where: string }> = [];
  const ref = (
    spec: string,
    options: Record<string, unknown>,
    configFile: string,
    keyPath: string,
  ): PluginRef => ({
    spec,
    id: PLUGIN_ALIASES[spec] ?? spec,
    options,
    origin: { configFile, keyPath },
  });
  for (const alias of FIRST_PARTY)
    if (await resolvePackageEntry(PLUGIN_ALIASES[alias]!, cwd))
      wanted.push({ ref: ref(alias, {}, 'node_modules', PLUGIN_ALIASES[alias]!), where: 'installed' });
  for (const name of await keywordRunners(cwd, top))
    wanted.push({
      ref: ref(name, {}, `node_modules/${name}/package.json`, 'keywords'),
      where: `keyword ${RUNNER_KEYWORD} in node_modules/${name}/package.json`,
    });
  for (const c of configured) {
    const [spec, options] = typeof c.spec === 'string' ? [c.spec, {}] : c.spec;
    wanted.push({ ref: ref(spec, options, c.configFile, c.keyPath), where: `${c.configFile}#${c.keyPath}` });
  }
  const runners: InitRunner[] = [];
  const problems: string[] = [];
  const tried = new Set<string>();
  for (const { ref: r, where } of wanted) {
    if (tried.has(r.id)) continue;
    tried.add(r.id);
    try {
      runners.push({
        spec: r.spec,
        id: r.id,
        options: r.options,
        runner: await loadPlugin('runner', r, cwd),
      });
    } catch (error) {
      const detail = (error as { detail?: unknown }).detail;
      problems.push(
        `skipping runner ${r.spec} (${where}): ${typeof detail === 'string' ? detail : errorMessage(error).split('\n')[0]}`,
      );
    }
  }
  return { runners, problems };
}
