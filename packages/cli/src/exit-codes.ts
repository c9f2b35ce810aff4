/**
 * The process exit codes and the error that means "the command line is wrong". Kept apart from
 * exit.ts, which imports core to classify errors, so that parsing argv loads no engine.
 */
export const EXIT = { green: 0, failures: 1, usage: 2, internal: 3 } as const;

export class UsageError extends Error {
  override name = 'UsageError';
}
