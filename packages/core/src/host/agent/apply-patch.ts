import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { ApplyInputSchema, type ApplyAnswer } from '../../api/contracts/agent-tools.js';
import { loadConfig } from '../load-config.js';
import { sha256 } from '../../safety/atomic.js';
import { Journal } from '../../safety/journal.js';
import { normalizeEditPath } from '../../safety/paths.js';
import { newRunId } from '../../engine/gate.js';
import { AgentInputError } from './errors.js';
import { parseToolInput } from './input.js';
import type { AgentCallOptions } from './propose-heal.js';
import { withRepository } from './repo-queue.js';
import { latestAnswer, loadSession, saveSession, type PatchFile } from './session-store.js';

async function currentHash(root: string, file: string): Promise<string | undefined> {
  try {
    return sha256(await readFile(join(root, file)));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Files whose bytes are no longer those the heal started from (or that now exist, or are gone). */
async function changedSince(root: string, writes: readonly PatchFile[]): Promise<string[]> {
  const changed: string[] = [];
  for (const w of writes) if ((await currentHash(root, w.file)) !== w.before) changed.push(w.file);
  return changed;
}

/**
 * `suture_apply`: writes a patch a heal answered, through the journal (a crash midway is undone by
 * `suture recover`), and only when every file it touches still holds the bytes the heal saw;
 * otherwise nothing is written and the answer names the files that changed.
 */
export async function applyProposedPatch(
  raw: unknown,
  options: Omit<AgentCallOptions, 'fixerMemory'>,
): Promise<ApplyAnswer> {
  const input = parseToolInput(ApplyInputSchema, raw);
  const loaded = await loadConfig({
    cwd: options.cwd,
    ...(options.configFile ? { file: options.configFile } : {}),
  });
  const root = loaded.dir;
  await loadSession(root, input.session_id, 'suture_apply');
  const runId = newRunId();
  return withRepository(
    root,
    `apply-${runId}`,
    async () => {
      const state = await loadSession(root, input.session_id, 'suture_apply');
      const patchId = input.patch_id ?? (await latestAnswer(root, state))?.patches[0]?.id;
      const writes = patchId ? state.patches[patchId] : undefined;
      if (!patchId || !writes) {
        const known = Object.keys(state.patches);
        throw new AgentInputError(
          'patch_id',
          patchId
            ? `session "${state.id}" has no patch "${patchId}"; its patches: ${known.join(', ') || 'none'}`
            : `session "${state.id}" has no patch to apply; call suture_heal first`,
        );
      }
      const answer = { session_id: state.id, patch_id: patchId, files: writes.map((w) => w.file) };
      for (const w of writes) {
        const norm = normalizeEditPath(w.file);
        if (!norm.ok) throw new AgentInputError('patch_id', `the patch names ${w.file}: ${norm.reason}`);
      }
      if (state.applied.includes(patchId))
        return { ...answer, applied: false, reason: `patch ${patchId} was applied already` };
      const changed = await changedSince(root, writes);
      if (changed.length > 0)
        return {
          ...answer,
          applied: false,
          changed,
          reason: `${changed.length} file(s) changed since the heal read them (${changed.join(', ')}); nothing was written: call suture_heal again on the current tree`,
        };
      options.onProgress?.(`writing ${writes.length} file(s) through the journal`);
      const journal = await Journal.create(root, runId);
      try {
        for (const w of writes) {
          if (w.after === undefined) continue;
          await journal.write(w.file, Buffer.from(w.after, 'base64'));
        }
        for (const w of writes) {
          if (w.after !== undefined) continue;
          // The journal keeps the original before the file goes, so a crash here is recovered too.
          await journal.write(w.file, Buffer.alloc(0));
          await rm(join(root, w.file), { force: true });
        }
      } catch (error) {
        await journal.restore();
        await journal.close();
        throw error;
      }
      await journal.close();
      state.applied.push(patchId);
      await saveSession(root, state);
      return { ...answer, applied: true };
    },
    options.onProgress ? { onQueued: options.onProgress } : {},
  );
}
