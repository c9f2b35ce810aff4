import { FixerError } from './errors.js';

/**
 * Thrown by a fixer that must not be asked again in this run: its endpoint failed several calls
 * in a row (a circuit breaker), or the run's budget is spent. The attempt ends as `fixer-error`
 * with this message, and the engine skips the fixer for every later failure group, so the reason
 * is reported once. It is a FixerError: the usage it carries still counts.
 */
export class FixerUnavailableError extends FixerError {
  readonly unavailable = true;
}

/** Whether an error (or one in its cause chain) says the fixer is out for the run. Matched by shape, not class. */
export function isFixerUnavailable(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    if ((e as { unavailable?: unknown }).unavailable === true) return true;
  }
  return false;
}
