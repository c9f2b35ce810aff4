import { errorMessage } from '../api/errors.js';
import type { Logger } from '../api/plugin.js';
import type { GateProject } from './types.js';

/**
 * The paths a project's runner asks the sandbox to keep visible (its `sandboxPaths` hook): a
 * toolchain's caches in the user's home. A runner without the hook, or one that throws, shares
 * nothing; the throw is logged, and the runs go on without the paths.
 */
export async function runnerPaths(project: GateProject, logger: Logger): Promise<string[]> {
  if (!project.runner.sandboxPaths) return [];
  try {
    const paths = await project.runner.sandboxPaths(project.root);
    return Array.isArray(paths)
      ? paths.filter((p): p is string => typeof p === 'string' && p.length > 0)
      : [];
  } catch (error) {
    logger.warn(
      `${project.name}: the runner's sandboxPaths failed, nothing of the home is shared for it: ${errorMessage(error)}`,
    );
    return [];
  }
}
