/**
 * Thrown by a transport when a call got no reply within its limit. The circuit breaker opens on
 * the first one: an endpoint that let one call run out its whole limit would cost every later
 * failure group the same wait.
 */
export class CallTimeoutError extends Error {
  /** Marks the error for the breaker across copies (a redacted copy keeps it). */
  readonly timedOut = true;
}

/** Whether an error (or what it wraps) is a call that ran out of time. */
export function isCallTimeout(error: unknown): boolean {
  let e: unknown = error;
  for (let depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    if ((e as { timedOut?: unknown }).timedOut === true) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

/** The signal of one call that ends at its limit, and whether the limit is what ended it. */
export interface CallDeadline {
  signal: AbortSignal;
  /** True once the limit has passed (and not because the caller's own signal was aborted). */
  expired(): boolean;
  /**
   * The call's promise, rejected with the signal's reason as soon as the signal aborts: an SDK
   * that sleeps out a server's `retry-after` between retries without watching the signal would
   * hold the call past its limit otherwise.
   */
  race<T>(call: Promise<T>): Promise<T>;
}

/**
 * One call's deadline: `timeoutMs` of wall-clock time for the whole call, the SDK's retries and
 * their back-off included, so that what a call can cost is one setting and not the SDK's
 * per-request timeout times its retries.
 */
export function callDeadline(signal: AbortSignal, timeoutMs: number): CallDeadline {
  const limit = AbortSignal.timeout(timeoutMs);
  const either = AbortSignal.any([signal, limit]);
  return {
    signal: either,
    expired: () => limit.aborted && !signal.aborted,
    race: <T>(call: Promise<T>): Promise<T> => {
      // the SDK's own promise rejects later, when it looks at the signal: nobody waits for it
      call.catch(() => undefined);
      if (either.aborted) return Promise.reject(either.reason as Error);
      return new Promise<T>((resolve, reject) => {
        const stop = (): void => reject(either.reason as Error);
        either.addEventListener('abort', stop, { once: true });
        call.then(
          (value) => (either.removeEventListener('abort', stop), resolve(value)),
          (error: unknown) => (either.removeEventListener('abort', stop), reject(error as Error)),
        );
      });
    },
  };
}
