import type { Usage } from '../api/contracts/fix.js';
import { errorMessage } from '../api/errors.js';
import { FixerUnavailableError } from '../api/fixer-unavailable.js';
import type { FixerContext } from '../api/plugin.js';
import { isCallTimeout } from './call-deadline.js';
import { CassetteMissError } from './cassette.js';

/**
 * What stands between an LLM fixer and its next paid call: the run's budget, and a circuit
 * breaker that takes the fixer out of the run after `threshold` calls in a row got no reply
 * (connection refused, 5xx, 429 after the retries, a timeout, a rejected key): an endpoint that
 * is down is paid for with time on every failure group otherwise. A call that ran out its time
 * limit opens it at once: a hung endpoint would cost every later call the whole limit again.
 */
export class CallGuard {
  private failedInARow = 0;
  /** Why the breaker opened: every later call is refused without being made. */
  private open: string | undefined;

  // Messages leave the fixer's name out: the engine's plugin wrapper puts it and its config entry first.
  constructor(private readonly threshold: number) {}

  /** Throws FixerUnavailableError when the budget forbids another call. */
  admit(ctx: FixerContext, pending: Usage | undefined): void {
    if (this.open) throw new FixerUnavailableError(this.open, spent(pending));
    const refusal = ctx.spend?.refusal(pending);
    if (refusal) throw new FixerUnavailableError(`no call made: ${refusal}`, spent(pending));
  }

  /** The signal of one call: the run's, and the budget's clock. */
  signal(ctx: FixerContext): AbortSignal {
    return ctx.spend ? AbortSignal.any([ctx.signal, ctx.spend.signal]) : ctx.signal;
  }

  /** A reply came back (with or without an answer): the endpoint works. */
  replied(): void {
    this.failedInARow = 0;
  }

  /**
   * A call that threw, as the error to throw: a FixerUnavailableError when the budget's clock
   * stopped it or when it is the `threshold`-th failure in a row, the error itself otherwise.
   */
  failed(error: unknown, ctx: FixerContext, pending: Usage | undefined): unknown {
    // no call was made: the cassette had no answer, which says nothing of the endpoint
    if (ctx.signal.aborted || error instanceof CassetteMissError) return error;
    if (ctx.spend?.signal.aborted) {
      const reason = ctx.spend.refusal(pending) ?? String(ctx.spend.signal.reason);
      return new FixerUnavailableError(`call stopped: ${reason}`, spent(pending), { cause: error });
    }
    this.failedInARow++;
    if (this.threshold === 0) return error;
    if (isCallTimeout(error))
      this.open = `${errorMessage(error)}; a call that runs out its time limit opens the breaker, so this fixer is skipped for the rest of the run (the fixer option "circuitBreaker")`;
    else if (this.failedInARow < this.threshold) return error;
    else
      this.open = `${errorMessage(error)}; ${this.failedInARow} calls in a row got no reply, so this fixer is skipped for the rest of the run (the fixer option "circuitBreaker")`;
    return new FixerUnavailableError(this.open, spent(pending), { cause: error });
  }
}

function spent(usage: Usage | undefined): Usage | undefined {
  return usage && usage.calls > 0 ? usage : undefined;
}
