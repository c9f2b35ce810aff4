import { writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { z, type DetectedProject } from '@suture/core';
import { UsageError } from '../exit.js';
import { existingConfig, type ExistingConfig } from '../init/existing-config.js';
import { findRunners, RUNNER_KEYWORD, type InitRunner } from '../init/runners.js';
import { skipSummary, walkFolders } from '../init/walk.js';

/** How deep below the current folder projects are looked for. */
const DEPTH = 3;

// A third party's detect() answer crosses a plugin boundary: parsed, never trusted.
const DetectedSchema = z.object({
  name: z.string(),
  reason: z.string(),
  options: z.record(z.string(), z.unknown()).optional(),
  notes: z.array(z.string()).optional(),
});

type RunnerEntry = string | [string, Record<string, unknown>];
type ProjectEntry = Record<string, unknown> & { name: string; root: string; runner?: RunnerEntry };

export interface InitFlags {
  force?: boolean;
  includeSubmodules?: boolean;
}

/** The runner's answer for `dir`, or `broken` after it threw or answered out of contract. */
async function detect(r: InitRunner, dir: string): Promise<DetectedProject | null | 'broken'> {
  try {
    const found = await r.runner.detect?.(dir);
    if (!found) return null;
    const parsed = DetectedSchema.safeParse(found);
    if (parsed.success) return parsed.data;
    process.stderr.write(
      `suture: ${r.spec}: detect(${dir}) answered ${JSON.stringify(found)}, not { name, reason, options?, notes? }; the runner is not asked again, fix it or report it to its authors\n`,
    );
  } catch (error) {
    process.stderr.write(
      `suture: ${r.spec}: detect(${dir}) failed: ${(error as Error).message}; the runner is not asked again, fix it or report it to its authors\n`,
    );
  }
  return 'broken';
}

function entry(r: InitRunner, found: DetectedProject): RunnerEntry {
  const options = { ...r.options, ...found.options };
  return Object.keys(options).length > 0 ? [r.spec, options] : r.spec;
}

function uniqueName(found: DetectedProject, r: InitRunner, taken: Set<string>): string {
  let name = found.name.replace(/[^A-Za-z0-9._-]/g, '-') || r.spec.replace(/[^A-Za-z0-9._-]/g, '-');
  if (taken.has(name)) name = `${name}-${r.spec.replace(/^.*[\\/]/, '').replace(/[^A-Za-z0-9._-]/g, '-')}`;
  for (let i = 2; taken.has(name); i++) name = `${name.replace(/-\d+$/, '')}-${i}`;
  taken.add(name);
  return name;
}

/** The projects the runners find under cwd; a project's own subfolders belong to it. */
async function detectProjects(
  cwd: string,
  folders: string[],
  runners: InitRunner[],
  existing: ExistingConfig | undefined,
): Promise<ProjectEntry[]> {
  const projects: ProjectEntry[] = [];
  const taken = new Set<string>();
  const claimed: Array<{ id: string; dir: string }> = [];
  const broken = new Set<string>();
  for (const dir of folders) {
    for (const r of runners) {
      if (broken.has(r.id) || claimed.some((c) => c.id === r.id && (dir + '/').startsWith(c.dir + '/')))
        continue;
      const found = await detect(r, dir);
      if (found === 'broken') broken.add(r.id);
      if (!found || found === 'broken') continue;
      claimed.push({ id: r.id, dir });
      const root = relative(cwd, dir) || '.';
      const kept = existing?.projects.find((p) => p.root === dir && p.runnerId === r.id);
      if (kept && typeof kept.entry.name === 'string' && !taken.has(kept.entry.name)) {
        taken.add(kept.entry.name);
        projects.push(kept.entry as ProjectEntry);
        process.stdout.write(
          `kept ${r.spec} project "${kept.entry.name}" in ${root} from the existing config\n`,
        );
        continue;
      }
      const name = uniqueName(found, r, taken);
      projects.push({ name, root, runner: entry(r, found) });
      process.stdout.write(`found ${r.spec} project "${name}" in ${root} (${found.reason})\n`);
      for (const note of found.notes ?? []) process.stdout.write(`  ${note}\n`);
    }
  }
  return projects;
}

/**
 * `suture init`: asks every installed runner (first-party, packages with the `suture-runner`
 * keyword, and those an existing config names) about the repository's own folders and writes
 * suture.config.json.
 */
export async function initCommand(flags: InitFlags): Promise<number> {
  const cwd = process.cwd();
  const existing = await existingConfig(cwd, flags.force === true);
  const walk = await walkFolders(cwd, { depth: DEPTH, includeSubmodules: flags.includeSubmodules === true });
  const { runners, problems } = await findRunners(cwd, walk.top, existing?.runners ?? []);
  for (const p of problems) process.stderr.write(`suture: ${p}\n`);
  if (runners.length === 0)
    throw new UsageError(
      `no suture runner is installed here; install one, e.g. \`npm install -D @suture/runner-pytest\` (a third-party runner is found by the keyword "${RUNNER_KEYWORD}" in its package.json)`,
    );
  for (const line of skipSummary(walk.skipped)) process.stdout.write(`${line}\n`);
  const projects = await detectProjects(cwd, walk.folders, runners, existing);
  if (projects.length === 0) {
    process.stdout.write(`no project detected by ${runners.map((r) => r.spec).join(', ')} under ${cwd}\n`);
    return 1;
  }
  const target = join(cwd, 'suture.config.json');
  const config = {
    $schema: './node_modules/@suture/core/config.schema.json',
    projects,
    fixers: ['hints'],
    reporters: ['console', 'json', 'junit', 'markdown', 'patch', 'bugs'],
    ...existing?.settings,
  };
  await writeFile(target, `${JSON.stringify(config, null, 2)}\n`);
  const builds = projects.some((p) =>
    ['ctest', '@suture/runner-ctest'].includes(Array.isArray(p.runner) ? p.runner[0] : (p.runner ?? '')),
  );
  process.stdout.write(
    `wrote ${target}\nsuture writes its run state to .suture/${builds ? ' and its C/C++ builds to build-suture/' : ''}; each folder holds a .gitignore of its own, so git status stays clean without an entry in yours\nnext: \`suture doctor\`, then \`suture run\`\n`,
  );
  return 0;
}
