import type { TreeChange } from '../../api/contracts/tree-change.js';

/** Where the runs that validate patches happen. */
export type WorkspaceMode = 'overlay' | 'copy' | 'in-place';
/** The config's `workspace`: `auto` is the overlay where the platform allows it, else a copy. */
export type WorkspaceChoice = 'auto' | WorkspaceMode;
/** The config's `sandbox`: `auto` is strict where the platform allows it, else the environment allowlist only. */
export type SandboxChoice = 'auto' | 'strict' | 'off';

/** What isolation a run really got: the report and `suture doctor` show it. */
export interface IsolationInForce {
  workspace: WorkspaceMode;
  /** strict: namespaces; env-only: the environment allowlist without namespaces; off: none. */
  sandbox: 'strict' | 'env-only' | 'off';
  /** Whether the runs had a network of their own (loopback only). */
  network: boolean;
  /** Whether everything outside the workspace (and suture's build and scratch folders) was read-only. */
  readOnly: boolean;
  /** Whether the runs' environment was an allowlist. */
  envAllowlist: boolean;
  /** pid-namespace: every process a run starts ends with it; process-group: those that leave the group can outlive it. */
  processes: 'pid-namespace' | 'process-group';
  /** Why something is weaker than asked, with what would fix it. */
  notes: string[];
}

/** A write to the view: a project-relative path and its new bytes, or undefined to delete it. */
export interface WorkspaceEdit {
  file: string;
  content: string | Buffer | undefined;
}

export type RealPath = { ok: true; path: string } | { ok: false; reason: string };

/**
 * A private view of one project: the runs of a heal happen here with the patches applied, and
 * the user's tree is not written (except in `in-place` mode, through the journal).
 */
export interface Workspace {
  readonly mode: WorkspaceMode;
  readonly isolation: IsolationInForce;
  /** The project root as the runs see it: the project's own path (overlay, in place) or the copy's. */
  readonly root: string;
  /**
   * Where suture's own process reads the view (the runs' path is the user's tree to it in an
   * overlay, which lives in another mount namespace): for reads only, never a write.
   */
  readonly readRoot: string;
  /**
   * Freezes files as they are now: later edits of the user's no longer reach the view's copy,
   * so the bytes a fixer is shown are the bytes its patch is applied to and validated on. A
   * no-op where the view is a snapshot already (a copy) or the tree itself.
   */
  pin(files: readonly string[]): Promise<void>;
  /** Runs `fn` with every process it starts through runProcess started in the view and the sandbox. */
  run<T>(fn: () => Promise<T>, options?: GuardedRunOptions): Promise<T>;
  /** A file's bytes in the view (undefined when absent there). */
  read(file: string): Promise<Buffer | undefined>;
  /** Where a write to `file` lands in the view, or why it is refused (see resolveRealPath). */
  resolve(file: string): Promise<RealPath>;
  /** Writes to the view (never to the user's tree, except in place). */
  apply(edits: readonly WorkspaceEdit[]): Promise<void>;
  /** A unified diff of what `apply` changed, from the view's first bytes of each file to its last. */
  diff(): string;
  /** Ends the view: namespaces, layers and the processes in them. */
  dispose(): Promise<void>;
  /**
   * What the runs since the last call changed in the user's tree or `.git` and the workspace put
   * back (an opened workspace always has it; a test's stand-in may not).
   */
  takeUndone?(): TreeChange[];
}

/** How the tree is watched around one run. */
export interface GuardedRunOptions {
  /**
   * Files (repository-relative) the run may change in the user's tree and keep: what a test
   * generator command is there to write. Anything else it changes is put back.
   */
  keep?: (file: string) => boolean;
}

/** A journal's two writes, for the in-place mode (repository-relative paths). */
export interface TreeJournal {
  write(file: string, content: Buffer | string): Promise<void>;
  /** What it wrote: a file whose bytes are one of `written` is the journal's, not a run's. */
  readonly entries?: ReadonlyArray<{ file: string; written: readonly string[] }>;
}

export interface WorkspaceOptions {
  workspace?: WorkspaceChoice;
  sandbox?: SandboxChoice;
  /** Environment variable names passed into the sandbox (the config's `sandboxEnv`). */
  sandboxEnv?: readonly string[];
  /** Extra secret names (the config's `secrets.names`): never passed into the sandbox. */
  secretNames?: readonly RegExp[];
  /** Absolute folders the runs must write and suture reads back (the run's scratch folder). */
  writable?: readonly string[];
  /** The runs' private HOME, made empty at the open (a folder in the project's state by default). */
  home?: string;
  /** The config's `sandboxHome`: paths of the real home shared read-only beyond the toolchains'. */
  sharedHome?: readonly string[];
  /**
   * Caches the runner names (`sandboxPaths`): where the overlay is available the runs see each as
   * the real folder under a private writable layer, which the runs of this workspace share and
   * which goes with it, so a toolchain that must write its cache can while the user's copy never
   * changes; elsewhere they are shared read-only like `sharedHome`.
   */
  cacheLayers?: readonly string[];
  /** The repository root: in-place writes go through `journal` under paths relative to it. */
  repoRoot?: string;
  journal?: TreeJournal;
  env?: NodeJS.ProcessEnv;
  /** Where the bytes a run left in the user's tree are kept when they are put back (the run folder). */
  undoneDir?: string;
}
