import {
  takeSnapshot,
  undoChanges,
  type GuardTarget,
  type TreeChange,
  type UndoOptions,
} from './tree-guard.js';

/**
 * Watches targets around runs: each run is snapshotted before and its changes undone after
 * (named only, when the options say not to restore). The changes wait in `take` for whoever
 * reports them, as a run's own result has no place for them.
 */
export class TreeWatch {
  private pending: TreeChange[] = [];

  constructor(
    private readonly targets: readonly GuardTarget[],
    private readonly options: UndoOptions,
  ) {}

  /** Runs `fn` between a snapshot and the undoing of what it changed, even when it throws. */
  async around<T>(fn: () => Promise<T>): Promise<T> {
    const snapshots = await Promise.all(this.targets.map((t) => takeSnapshot(t)));
    try {
      return await fn();
    } finally {
      for (const s of snapshots) this.pending.push(...(await undoChanges(s, this.options)));
    }
  }

  /** The changes undone (or named) since the last call. */
  take(): TreeChange[] {
    const out = this.pending;
    this.pending = [];
    return out;
  }
}
