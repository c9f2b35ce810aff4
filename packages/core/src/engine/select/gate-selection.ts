import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ChangeBase } from '../../api/contracts/selection.js';
import { sha256 } from '../../safety/atomic.js';
import { errorMessage } from '../../api/errors.js';
import type { Logger } from '../../api/plugin.js';
import type { GateOptions } from '../types.js';
import { changedSince, headCommit, resolveBase } from './git-changes.js';
import type { GateSelection } from './project-selection.js';

export interface GateSelectionSetup {
  selection?: GateSelection;
  /** For the report: the commit the change was measured against. */
  base?: ChangeBase;
}

/** Reads the change once for the whole gate: the base commit, the files that differ, the tree a record sees. */
export async function setUpSelection(
  options: GateOptions,
  runId: string,
  logger: Logger,
): Promise<GateSelectionSetup> {
  const wanted = options.selection;
  if (!wanted || (wanted.mode === 'all' && !wanted.record)) return {};
  const selection: GateSelection = {
    mode: wanted.mode,
    record: wanted.record,
    projectRoots: options.projects.map((p) => p.root),
    runId,
  };
  let base: ChangeBase | undefined;
  if (wanted.mode === 'changed') {
    try {
      const found = await resolveBase(options.root, wanted.ref);
      const changed = await changedSince(options.root, found.commit);
      selection.base = { commit: found.commit, changed };
      base = { commit: found.commit, source: found.source, changed: changed.length };
      logger.info(
        `--changed: ${changed.length} file(s) differ from ${found.commit.slice(0, 12)} (${found.source})`,
      );
    } catch (error) {
      const message = errorMessage(error);
      selection.base = { error: message };
      base = {
        commit: '',
        source: wanted.ref ? `given: ${wanted.ref}` : 'default branch',
        changed: 0,
        error: message,
      };
      logger.warn(`--changed: ${message}; every project runs whole`);
    }
  }
  if (wanted.record !== false) {
    const commit = await headCommit(options.root).catch(() => undefined);
    if (commit) {
      const files = await changedSince(options.root, commit).catch(() => [] as string[]);
      const dirty: Record<string, string> = {};
      for (const f of files) {
        const bytes = await readFile(join(options.root, f)).catch(() => undefined);
        dirty[f] = bytes ? sha256(bytes) : '';
      }
      selection.tree = { commit, dirty };
    }
  }
  return { selection, ...(base ? { base } : {}) };
}
