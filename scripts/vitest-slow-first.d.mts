import type { BaseSequencer } from 'vitest/node';

/** A sequencer that starts the named test files (relative to the package) before all others. */
export function slowFirst(slowest: readonly string[]): typeof BaseSequencer;
