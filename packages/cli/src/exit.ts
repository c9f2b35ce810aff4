import { ConfigError, PluginError } from '@suture/core';
import { LockError, UnrecoveredJournalError } from '@suture/core/internal';

export const EXIT = { green: 0, failures: 1, usage: 2, internal: 3 } as const;

/** Usage and config problems exit 2 with their message; anything else is an internal error (3). */
export function exitCodeFor(error: unknown): number {
  if (
    error instanceof ConfigError ||
    error instanceof PluginError ||
    error instanceof UsageError ||
    error instanceof UnrecoveredJournalError ||
    error instanceof LockError
  )
    return EXIT.usage;
  return EXIT.internal;
}

export class UsageError extends Error {
  override name = 'UsageError';
}
