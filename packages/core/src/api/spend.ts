import type { Usage } from './contracts/fix.js';

/**
 * What a fixer sees of the run's spend budget (`budget` in the config), shared by every fixer of
 * every project. An LLM fixer asks before each call; the engine records what each attempt spent.
 */
export interface SpendGuard {
  /**
   * Why no further call may start (a limit is reached), or undefined. `pending` is what the
   * current proposal has spent so far and the engine has not recorded yet.
   */
  refusal(pending?: Usage): string | undefined;
  /** Aborted when the run's time budget runs out, so that calls in progress stop. */
  readonly signal: AbortSignal;
}
