import { execFile } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { PostTasksExecution } from 'nx/src/devkit-exports.js';
import { parseOptions, type SutureNxOptions } from './options.js';
import { TASK_RUNS } from './create-nodes.js';

/** Where the merged reports of one `nx` command go, under the suture config's folder. */
export const MERGED_DIR = '.suture/nx-merged';

/** The `suture` bin of the workspace's @suture/cli, run with this Node. */
function sutureBin(workspaceRoot: string): string {
  const require = createRequire(join(workspaceRoot, 'package.json'));
  const pkg = require.resolve('@suture/cli/package.json');
  return join(dirname(pkg), 'dist', 'bin.js');
}

/**
 * After `nx affected -t suture` (or run-many), merges the run folders of the suture tasks that ran
 * or were replayed from the cache into one report per suture config: report.json, results.xml,
 * summary.md, fixes.patch and bug_report.json in `.suture/nx-merged/` next to the config.
 */
export const postTasksExecution: PostTasksExecution<SutureNxOptions> = async (rawOptions, context) => {
  const options = parseOptions(rawOptions);
  const byConfigDir = new Map<string, string[]>();
  for (const result of Object.values(context.taskResults)) {
    const { task } = result;
    if (task.target.target !== options.targetName) continue;
    for (const output of task.outputs ?? []) {
      const at = output.replace(/\\/g, '/').lastIndexOf(`/${TASK_RUNS}/`);
      const configDir = at < 0 ? (output.startsWith(`${TASK_RUNS}/`) ? '.' : undefined) : output.slice(0, at);
      if (configDir === undefined) continue;
      const list = byConfigDir.get(configDir) ?? [];
      list.push(join(context.workspaceRoot, output));
      byConfigDir.set(configDir, list);
    }
  }
  if (byConfigDir.size === 0) return;
  const bin = sutureBin(context.workspaceRoot);
  for (const [configDir, runs] of byConfigDir) {
    const cwd = join(context.workspaceRoot, configDir);
    // a merge that fails must not leave the previous command's report looking current
    await rm(join(cwd, MERGED_DIR), { recursive: true, force: true });
    // Asynchronous: a plugin worker that blocks its event loop can miss Nx's messages.
    const r = await new Promise<{ code: number | null; stderr: string }>((done) => {
      execFile(
        process.execPath,
        [bin, 'merge', ...runs.sort(), '--out', join(cwd, MERGED_DIR)],
        { cwd, env: { ...process.env, CI: process.env.CI ?? '1' }, maxBuffer: 64 << 20 },
        (error, _stdout, stderr) =>
          done({ code: error ? ((error as { code?: number }).code ?? null) : 0, stderr }),
      );
    });
    if (r.code !== 0 && r.code !== 1)
      process.stderr.write(`@suture/nx: suture merge in ${cwd} failed (exit ${r.code}): ${r.stderr}\n`);
  }
};
