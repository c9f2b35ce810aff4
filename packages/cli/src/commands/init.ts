import { access, readdir, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { resolvePackageEntry } from '@suture/core/internal';
import { type Runner } from '@suture/core';
import { UsageError } from '../exit.js';

const RUNNERS = [
  ['pytest', '@suture/runner-pytest'],
  ['ctest', '@suture/runner-ctest'],
  ['jest', '@suture/runner-jest'],
] as const;
const SKIP = new Set([
  'node_modules',
  '.git',
  '.suture',
  '.venv',
  'venv',
  '__pycache__',
  'dist',
  'build',
  'build-suture',
  '.tox',
  '.pytest_cache',
]);

async function installedRunners(cwd: string): Promise<Array<{ alias: string; runner: Runner }>> {
  const out: Array<{ alias: string; runner: Runner }> = [];
  for (const [alias, pkg] of RUNNERS) {
    const entry = await resolvePackageEntry(pkg, cwd);
    if (!entry) continue;
    try {
      const mod = (await import(pathToFileURL(entry).href)) as { default: () => Runner };
      out.push({ alias, runner: mod.default() });
    } catch (error) {
      process.stderr.write(
        `suture: skipping ${pkg}: it cannot be loaded (${(error as Error).message.split('\n')[0]})\n`,
      );
    }
  }
  return out;
}

async function* folders(root: string, depth: number): AsyncGenerator<string> {
  yield root;
  if (depth === 0) return;
  const entries = await readdir(root, { withFileTypes: true }).catch(() => []);
  for (const e of entries)
    if (e.isDirectory() && !SKIP.has(e.name) && !e.name.startsWith('.'))
      yield* folders(join(root, e.name), depth - 1);
}

/** `suture init`: detect projects with the installed runners and write suture.config.json. */
export async function initCommand(flags: { force?: boolean }): Promise<number> {
  const cwd = process.cwd();
  const target = join(cwd, 'suture.config.json');
  if (
    !flags.force &&
    (await access(target).then(
      () => true,
      () => false,
    ))
  ) {
    throw new UsageError(`${target} already exists; pass --force to overwrite it`);
  }
  const runners = await installedRunners(cwd);
  if (runners.length === 0)
    throw new UsageError(
      'no suture runner is installed here; install one, e.g. `npm install -D @suture/runner-pytest`',
    );
  const projects: Array<{ name: string; root: string; runner: string | [string, Record<string, unknown>] }> =
    [];
  const taken = new Set<string>();
  const claimed: Array<{ alias: string; dir: string }> = [];
  for await (const dir of folders(cwd, 3)) {
    for (const { alias, runner } of runners) {
      // a project's own subfolders (its tests/) belong to it
      if (claimed.some((c) => c.alias === alias && (dir + '/').startsWith(c.dir + '/'))) continue;
      const found = await runner.detect?.(dir);
      if (!found) continue;
      let name = found.name.replace(/[^A-Za-z0-9._-]/g, '-') || alias;
      if (taken.has(name)) name = `${name}-${alias}`;
      taken.add(name);
      claimed.push({ alias, dir });
      const root = relative(cwd, dir) || '.';
      projects.push({ name, root, runner: found.options ? [alias, found.options] : alias });
      process.stdout.write(`found ${alias} project "${name}" in ${root} (${found.reason})\n`);
    }
  }
  if (projects.length === 0) {
    process.stdout.write(`no project detected by ${runners.map((r) => r.alias).join(', ')} under ${cwd}\n`);
    return 1;
  }
  const config = {
    $schema: './node_modules/@suture/core/config.schema.json',
    projects,
    fixers: ['hints'],
    reporters: ['console', 'json', 'junit', 'markdown', 'patch', 'bugs'],
  };
  await writeFile(target, `${JSON.stringify(config, null, 2)}\n`);
  const builds = projects.some((p) => (Array.isArray(p.runner) ? p.runner[0] : p.runner) === 'ctest');
  process.stdout.write(
    `wrote ${target}\nsuture writes its run state to .suture/${builds ? ' and its C/C++ builds to build-suture/' : ''}; each folder holds a .gitignore of its own, so git status stays clean without an entry in yours\nnext: \`suture doctor\`, then \`suture run\`\n`,
  );
  return 0;
}
