import { dirname, join } from 'node:path/posix';
import { loadConfig } from '@suture/core/host';
import type { CreateNodesResult, CreateNodesV2, TargetConfiguration } from 'nx/src/devkit-exports.js';
import { parseOptions, type ResolvedSutureNxOptions, type SutureNxOptions } from './options.js';
import { normalize, owningRoot } from './owners.js';

/** The suture config files Nx hands to the plugin. */
export const CONFIG_GLOB = '**/suture.config.{json,yaml,yml,mjs,ts}';

/** Where a task's run folder goes, under the config's folder: Nx caches and restores it. */
export const TASK_RUNS = '.suture/nx';

/**
 * Per-task reporters: the console output is what Nx replays on a cache hit; the Markdown summary
 * is written once, by the merge after the tasks.
 */
const TASK_REPORTERS = 'console,json,junit,patch,bugs';

const quote = (s: string): string => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

/** Files named by a fixer option such as `cassette`: recorded answers change what a heal does. */
function fixerFiles(fixers: ReadonlyArray<unknown>): string[] {
  const files: string[] = [];
  for (const spec of fixers) {
    const options = Array.isArray(spec) ? (spec[1] as Record<string, unknown>) : undefined;
    for (const [key, value] of Object.entries(options ?? {}))
      if (/cassette/i.test(key) && typeof value === 'string') files.push(value);
  }
  return files;
}

/**
 * The test tool a runner spec names, for the target's technologies: `vitest` for
 * `@suture/runner-vitest`, `jest` for the alias `jest`; none for a runner in a local file or another package.
 */
export function runnerTool(spec: unknown): string | undefined {
  const name = Array.isArray(spec) ? spec[0] : spec;
  if (typeof name !== 'string' || /^[./]/.test(name)) return undefined;
  return /^@suture\/runner-([\w-]+)$/.exec(name)?.[1] ?? (/^[a-z]+$/.test(name) ? name : undefined);
}

function sutureTarget(
  names: string[],
  roots: string[],
  tools: string[],
  configFile: string,
  cassettes: string[],
  options: ResolvedSutureNxOptions,
): TargetConfiguration {
  const configDir = normalize(dirname(configFile));
  const out = `${TASK_RUNS}/${names.join('+')}`;
  const inWorkspace = (p: string): string => `{workspaceRoot}/${normalize(join(configDir, p))}`;
  const reporters = options.args.some((a) => a === '--reporter' || a.startsWith('--reporter='))
    ? []
    : ['--reporter', TASK_REPORTERS];
  return {
    command: [options.command, 'run', ...names, '--out', out, ...reporters, ...options.args]
      .map(quote)
      .join(' '),
    options: { cwd: configDir },
    cache: true,
    // One gate at a time per repository (suture's lock): the tasks of one workspace take turns;
    // Nx agents, each with its own checkout, still run them side by side.
    parallelism: false,
    inputs: [
      ...roots.map((r) => `${inWorkspace(r)}/**/*`),
      `!${inWorkspace('.suture')}/**/*`,
      `{workspaceRoot}/${normalize(configFile)}`,
      ...cassettes.map(inWorkspace),
      '^default',
      ...(options.inputs as TargetConfiguration['inputs'] & unknown[]),
    ],
    outputs: [inWorkspace(out)],
    metadata: {
      technologies: ['suture', ...tools],
      description: `suture gate of ${names.join(', ')} (${normalize(configFile)})`,
    },
  };
}

async function nodesFor(
  configFile: string,
  options: ResolvedSutureNxOptions,
  workspaceRoot: string,
): Promise<CreateNodesResult> {
  const loaded = await loadConfig({ cwd: workspaceRoot, file: join(workspaceRoot, configFile) });
  const configDir = normalize(dirname(configFile));
  const groups = new Map<string, { names: string[]; roots: string[]; tools: string[]; own: boolean }>();
  for (const p of loaded.config.projects) {
    const root = normalize(join(configDir, p.root));
    const owner = owningRoot(workspaceRoot, root);
    const key = owner ?? root;
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { names: [], roots: [], tools: [], own: owner === undefined }));
    group.names.push(p.name);
    group.roots.push(normalize(p.root));
    const tool = runnerTool(p.runner);
    if (tool && !group.tools.includes(tool)) group.tools.push(tool);
  }
  const cassettes = fixerFiles(loaded.config.fixers);
  const projects: NonNullable<CreateNodesResult['projects']> = {};
  for (const [root, group] of groups) {
    projects[root] = {
      // a suture project inside no Nx project becomes one, named as in the suture config
      ...(group.own ? { name: group.names.join('+') } : {}),
      targets: {
        [options.targetName]: sutureTarget(
          group.names,
          group.roots,
          group.tools,
          configFile,
          cassettes,
          options,
        ),
      },
    };
  }
  return { projects };
}

/** Infers a cached `suture` target on the Nx project that holds each project of a suture config. */
export const createNodesV2: CreateNodesV2<SutureNxOptions> = [
  CONFIG_GLOB,
  async (files, rawOptions, context) => {
    const options = parseOptions(rawOptions);
    return Promise.all(
      files.map(async (file) => [file, await nodesFor(file, options, context.workspaceRoot)] as const),
    );
  },
];
