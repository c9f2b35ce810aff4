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

  /** A target's own `restore` (the `.git` folder's, always) overrides the options'. */
  constructor(
    private readonly targets: ReadonlyArray<GuardTarget & { restore?: boolean }>,
    private readonly options: UndoOptions,
  ) {}

  /**
   * Runs `fn` between a snapshot and the undoing of what it changed, even when it throws; what
   * `keep` accepts (repository-relative) stays as the run left it.
   */
  async around<T>(fn: () => Promise<T>, keep?: (file: string) => boolean): Promise<T> {
    const snapshots = await Promise.all(this.targets.map((t) => takeSnapshot(t)));
    try {
      return await fn();
    } finally {
      for (const [i, s] of snapshots.entries()) {
        const restore = this.targets[i]!.restore ?? this.options.restore;
        const expected = this.options.expected;
        const own = keep
          ? async (file: string): Promise<boolean> => keep(file) || ((await expected?.(file)) ?? false)
          : expected;
        this.pending.push(
          ...(await undoChanges(s, { ...this.options, restore, ...(own ? { expected: own } : {}) })),
        );
      }
    }
  }

  /** The changes undone (or named) since the last call. */
  take(): TreeChange[] {
    const out = this.pending;
    this.pending = [];
    return out;
  }
}
