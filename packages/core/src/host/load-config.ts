import { readFile, stat } from 'node:fs/promises';
import { basename, dirname, extname, isAbsolute, join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { z } from 'zod';
import {
  ConfigSchema,
  HealConfigSchema,
  ProjectConfigSchema,
  type Config,
  type HealConfig,
} from '../api/contracts/config.js';
import { ConfigError } from '../api/errors.js';
import { CONFIG_NAMES, configFilesIn, findConfigFile } from './find-config.js';
import { barredFromSandbox } from '../safety/sandbox/env.js';
import { formatIssues } from './format-issues.js';

export interface LoadedConfig {
  /** Absolute path of the config file. */
  file: string;
  /** The config file's folder: plugins and project roots resolve from here. */
  dir: string;
  /** The file as shown in messages (relative to cwd when that is shorter). */
  display: string;
  config: Config;
  /** What the user should know about how the file was chosen (another config file beside it, unused). */
  warnings: string[];
}

/** A config file's text, without the byte order mark some Windows editors write first. */
async function readText(file: string): Promise<string> {
  const text = await readFile(file, 'utf8');
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

function display(file: string, cwd: string): string {
  const rel = relative(cwd, file);
  return rel && !rel.startsWith('..') && rel.length < file.length ? rel : file;
}

function lineCol(text: string, offset: number): string {
  const before = text.slice(0, offset).split('\n');
  return `line ${before.length}, column ${(before[before.length - 1]?.length ?? 0) + 1}`;
}

async function importTypeScript(file: string): Promise<unknown> {
  const { createJiti } = await import('jiti');
  return createJiti(pathToFileURL(file).href, { moduleCache: false }).import(file);
}

async function readRaw(file: string, shown: string): Promise<unknown> {
  const ext = extname(file);
  if (ext === '.json') {
    const text = await readText(file);
    try {
      return JSON.parse(text);
    } catch (error) {
      const pos = /position (\d+)/.exec((error as Error).message);
      throw new ConfigError(
        `${shown}: invalid JSON${pos ? ` at ${lineCol(text, Number(pos[1]))}` : ''}: ${(error as Error).message}`,
        file,
      );
    }
  }
  if (ext === '.yaml' || ext === '.yml') {
    // yaml and jiti are hundreds of modules: loaded only for a config written in their format
    const { parseDocument } = await import('yaml');
    const doc = parseDocument(await readText(file));
    const err = doc.errors[0];
    if (err)
      throw new ConfigError(
        `${shown}: invalid YAML at line ${err.linePos?.[0]?.line ?? '?'}, column ${err.linePos?.[0]?.col ?? '?'}: ${err.message.split('\n')[0]}`,
        file,
      );
    return doc.toJS();
  }
  try {
    const mod =
      ext === '.ts' || ext === '.mts'
        ? await importTypeScript(file)
        : await import(`${pathToFileURL(file).href}?t=${Date.now()}`);
    const value = (mod as { default?: unknown }).default ?? mod;
    return typeof value === 'function' ? await (value as () => unknown)() : value;
  } catch (error) {
    throw new ConfigError(`${shown}: cannot load the config module: ${(error as Error).message}`, file);
  }
}

function validKeysAt(path: ReadonlyArray<PropertyKey>): string[] | undefined {
  const shape = (s: z.ZodType): string[] =>
    Object.keys((s as unknown as { shape: Record<string, unknown> }).shape);
  if (path.length === 0) return shape(ConfigSchema);
  if (path[0] === 'heal' && path.length === 1) return shape(HealConfigSchema);
  if (path[0] === 'projects' && path.length === 2) return shape(ProjectConfigSchema);
  if (path[0] === 'projects' && path[2] === 'heal') return shape(HealConfigSchema);
  return undefined;
}

/** Validates a raw config value; errors name the file, the key path, what was expected and found. */
export function parseConfig(raw: unknown, shown: string): Config {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw))
    throw new ConfigError(`${shown}: the config must be an object with a "projects" list`, shown);
  const parsed = ConfigSchema.safeParse(raw);
  if (!parsed.success) {
    const lines = formatIssues(parsed.error, raw, validKeysAt);
    const first = parsed.error.issues[0];
    throw new ConfigError(
      `${shown}: invalid config\n${lines.map((l) => `  - ${l}`).join('\n')}`,
      shown,
      first ? first.path.map(String).join('.') : undefined,
    );
  }
  for (const [i, name] of parsed.data.sandboxEnv.entries())
    if (barredFromSandbox(name))
      throw new ConfigError(
        `${shown}: invalid config\n  - sandboxEnv[${i}]: "${name}" names a secret or an LLM setting, which the sandbox never passes to the code under test; give the tests a variable of their own, or set "sandbox" to "off"`,
        shown,
        `sandboxEnv.${i}`,
      );
  const seen = new Set<string>();
  for (const [i, p] of parsed.data.projects.entries()) {
    if (seen.has(p.name))
      throw new ConfigError(
        `${shown}: projects[${i}].name: duplicate project name "${p.name}"`,
        shown,
        `projects[${i}].name`,
      );
    seen.add(p.name);
  }
  return parsed.data;
}

/** Loads, validates and checks the config (found by walking up from `cwd`, or the given file). */
export async function loadConfig(options: { cwd: string; file?: string }): Promise<LoadedConfig> {
  const file = options.file ? resolve(options.cwd, options.file) : await findConfigFile(options.cwd);
  if (!file) {
    throw new ConfigError(
      `no suture.config.{json,yaml,mjs,ts} found in ${options.cwd} or any parent folder; run \`suture init\` to create one, or pass --config FILE`,
    );
  }
  const found = await stat(file).catch(() => undefined);
  if (!found) throw new ConfigError(`config file ${file} does not exist`, file);
  if (found.isDirectory()) {
    const inside = await configFilesIn(file);
    throw new ConfigError(
      `--config ${options.file ?? file}: ${file} is a folder, not a config file; ${
        inside[0]
          ? `pass the file itself: --config ${join(options.file ?? file, basename(inside[0]))}`
          : `give one of ${CONFIG_NAMES.join(', ')}`
      }`,
      file,
    );
  }
  const shown = display(file, options.cwd);
  const config = parseConfig(await readRaw(file, shown), shown);
  const dir = dirname(file);
  for (const [i, p] of config.projects.entries()) {
    const root = resolve(dir, p.root);
    const key = `projects[${i}].root`;
    const inside = relative(dir, root);
    if (inside.startsWith('..') || isAbsolute(inside))
      throw new ConfigError(
        `${shown}: ${key}: "${p.root}" resolves to ${root}, outside the config file's folder ${dir}, which is the repository suture gates; give a folder inside it, or move the config file up`,
        shown,
        key,
      );
    const st = await stat(root).catch(() => undefined);
    if (!st?.isDirectory())
      throw new ConfigError(
        `${shown}: ${key}: folder "${p.root}" does not exist (resolved to ${root})`,
        shown,
        key,
      );
  }
  const others = options.file ? [] : (await configFilesIn(dir)).filter((f) => f !== file);
  const warnings = others.map(
    (other) =>
      `${display(other, options.cwd)} is not used: ${shown || basename(file)} is read first (order: ${CONFIG_NAMES.join(', ')}); remove one of them`,
  );
  return { file, dir, display: shown || basename(file), config, warnings };
}

/** The heal settings of a project: top-level settings with the project's overrides. */
export function projectHeal(config: Config, index: number): HealConfig {
  return HealConfigSchema.parse({ ...config.heal, ...config.projects[index]?.heal });
}
