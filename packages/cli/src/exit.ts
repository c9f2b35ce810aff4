import { ConfigError, PluginError } from '@suture/core';
import { LockError, UnrecoveredJournalError } from '@suture/core/internal';
import { EXIT, UsageError } from './exit-codes.js';

export { EXIT, UsageError } from './exit-codes.js';

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
