import { realpath } from 'node:fs/promises';
import { join, relative } from 'node:path';
import type { AutoRunRollback, RollbackStrategy } from '../../api/contracts/autorun.js';
import { toPosix } from '../../safety/paths.js';
import type { AuditLog } from './audit.js';
import type { Snapshot } from './snapshot.js';

/**
 * Takes generated files back out of the workspace by the chosen strategy, and keeps the tally
 * the report shows:
 * - `restoreSnapshot` puts back the bytes saved before the run (new files are removed);
 * - `gitCheckout` checks tracked files out of HEAD and removes the new files git does not track;
 * - `manual` leaves every file as it is and says what to run to take it out.
 */
export class Rollback {
  readonly tally: AutoRunRollback;

  constructor(
    private readonly strategy: RollbackStrategy,
    private readonly projectRoot: string,
    private readonly snapshot: Snapshot,
    private readonly audit: AuditLog,
    private readonly env: NodeJS.ProcessEnv,
  ) {
    this.tally = { strategy, restored: [], left: [], instructions: [], conflicts: [] };
  }

  async undo(files: readonly string[], why: string): Promise<void> {
    const taken = files.filter((f) => this.snapshot.has(f));
    if (taken.length === 0) return;
    if (this.strategy === 'manual') return this.leave(taken, why);
    if (this.strategy === 'gitCheckout') {
      const tracked = await this.tracked(taken);
      if (tracked.length) {
        const r = await this.audit.run(
          'git',
          ['checkout', 'HEAD', '--', ...tracked],
          { cwd: this.projectRoot, env: this.env, timeoutMs: 60_000 },
          `rollback (${why})`,
        );
        if (r.exitCode === 0) {
          this.tally.restored.push(...tracked);
          for (const f of tracked) {
            this.snapshot.markRestored(f);
            await this.audit.fileEvent('restore', f, `git checkout: ${why}`);
          }
        } else
          this.tally.conflicts.push(
            ...tracked.map((file) => ({
              file,
              reason: `git checkout failed: ${r.output.trim().slice(-200)}`,
            })),
          );
      }
      // a new file git does not know, or an untracked file of the user's: the snapshot has its bytes
      const rest = taken.filter((f) => !tracked.includes(f));
      return this.restore(rest, why);
    }
    return this.restore(taken, why);
  }

  private async restore(files: readonly string[], why: string): Promise<void> {
    if (files.length === 0) return;
    const r = await this.snapshot.restore(files, why);
    this.tally.restored.push(...r.restored);
    this.tally.conflicts.push(...r.conflicts);
  }

  private leave(files: readonly string[], why: string): void {
    for (const file of files) {
      if (this.tally.left.includes(file)) continue;
      this.tally.left.push(file);
      this.tally.instructions.push(
        this.snapshot.existed(file)
          ? `${file} was changed (${why}): review it, or run \`git checkout -- ${file}\` if it is tracked`
          : `${file} was created (${why}): delete it with \`rm ${file}\``,
      );
    }
  }

  private async tracked(files: readonly string[]): Promise<string[]> {
    const r = await this.audit.run(
      'git',
      ['ls-files', '--full-name', '--', ...files],
      { cwd: this.projectRoot, env: this.env, timeoutMs: 60_000 },
      'which files git tracks',
    );
    if (r.exitCode !== 0) return [];
    const prefix = await this.prefix();
    const listed = new Set(
      r.output
        .split('\n')
        .map((l) => l.trim())
        .filter(Boolean),
    );
    return files.filter((f) => listed.has(toPosix(join(prefix, f))));
  }

  private async prefix(): Promise<string> {
    const r = await this.audit.run(
      'git',
      ['rev-parse', '--show-toplevel'],
      { cwd: this.projectRoot, env: this.env, timeoutMs: 60_000 },
      'the repository root',
    );
    return r.exitCode === 0 ? toPosix(relative(r.output.trim(), await realpath(this.projectRoot))) : '';
  }
}
