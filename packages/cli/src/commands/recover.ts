import { findConfigFile, recover } from '@suture/core/internal';
import { dirname, resolve } from 'node:path';

/** `suture recover`: restore the files of an interrupted run from its journal. */
export async function recoverCommand(flags: { config?: string }): Promise<number> {
  const file = flags.config ? resolve(flags.config) : await findConfigFile(process.cwd());
  const root = file ? dirname(file) : process.cwd();
  const outcome = await recover(root);
  for (const p of outcome.stopped ?? [])
    process.stdout.write(
      `stopped process group ${p.pgid} left running by the interrupted run (${p.command})\n`,
    );
  if (!outcome.found) {
    // A run killed before it wrote the tree leaves no journal, only processes and raw output.
    if (outcome.stopped?.length || outcome.removed?.length)
      process.stdout.write(`removed the interrupted run's raw output and workspaces; no file to restore\n`);
    else process.stdout.write(`nothing to recover in ${root}: no interrupted run left a journal\n`);
    return 0;
  }
  for (const f of outcome.restored) process.stdout.write(`restored ${f}\n`);
  for (const f of outcome.deleted) process.stdout.write(`removed ${f} (created by the interrupted run)\n`);
  for (const c of outcome.conflicts) process.stdout.write(`kept your version of ${c.file}: ${c.reason}\n`);
  process.stdout.write(
    `recovered run ${outcome.runId ?? '?'}: ${outcome.restored.length + outcome.deleted.length} file(s) restored, ${outcome.conflicts.length} conflict(s)\n`,
  );
  return 0;
}
