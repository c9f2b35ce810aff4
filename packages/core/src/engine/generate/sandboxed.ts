import { join, posix, relative } from 'node:path';
import type { TreeChange } from '../../api/contracts/tree-change.js';
import { toPosix } from '../../safety/paths.js';
import { openWorkspace } from '../../safety/workspace/open-workspace.js';
import type { Workspace } from '../../safety/workspace/types.js';
import { undoneWarning } from '../undone.js';
import type { RunState } from './state.js';
import type { AutoRunOptions } from './types.js';

/**
 * The workspace every command of an auto-run starts in: the project itself (the files it keeps
 * are written there), sandboxed as validation runs are where the machine allows it, with the
 * environment allowlist (no API key) everywhere. After each run, what it changed in the tree
 * other than the generated files is put back.
 */
export function openAutoRunWorkspace(
  options: AutoRunOptions,
  runDir: string,
  cacheDir: string,
): Promise<Workspace> {
  return openWorkspace(options.project.root, {
    workspace: 'in-place',
    sandbox: options.sandbox ?? 'auto',
    sandboxEnv: options.sandboxEnv ?? [],
    secretNames: options.secretNames ?? [],
    writable: [runDir, cacheDir],
    repoRoot: options.root,
    undoneDir: join(runDir, 'undone'),
    ...(options.env ? { env: options.env } : {}),
  });
}

/** A repository-relative file as the project names it (undefined outside the project). */
function projectFile(state: RunState, file: string): string | undefined {
  const rel = toPosix(relative(state.options.project.root, posix.join(state.options.root, file)));
  return rel.startsWith('..') ? undefined : rel;
}

/** Puts what a run changed outside the generated files in the audit trail and the rollback's tally. */
async function recordUndone(state: RunState, what: string, changes: readonly TreeChange[]): Promise<void> {
  if (changes.length === 0) return;
  state.options.logger.warn(undoneWarning(what, changes));
  const { tally } = state.rollback;
  for (const c of changes) {
    if (c.restored) {
      if (!tally.restored.includes(c.file)) tally.restored.push(c.file);
    } else tally.conflicts.push({ file: c.file, reason: `${what} ${c.change} it: ${c.reason ?? 'left'}` });
    await state.audit.fileEvent(
      'restore',
      c.file,
      `${what} ${c.change} it, and only generated files may change${c.restored ? ': put back' : ''}`,
    );
  }
}

/**
 * Runs `fn` (a test run, a coverage measurement, the generator command, a heal) in the auto-run's
 * workspace; `keep` names the project files it may write and keep (the generated ones).
 */
export async function inWorkspace<T>(
  state: RunState,
  what: string,
  fn: () => Promise<T>,
  keep?: (projectFile: string) => boolean,
): Promise<T> {
  const ws = state.workspace;
  if (!ws) return fn();
  try {
    return await ws.run(fn, {
      keep: (file) => {
        const own = projectFile(state, file);
        return own !== undefined && (state.snapshot.has(own) || (keep?.(own) ?? false));
      },
    });
  } finally {
    await recordUndone(state, what, ws.takeUndone?.() ?? []);
  }
}
