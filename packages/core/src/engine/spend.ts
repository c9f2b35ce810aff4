import type { BudgetConfig } from '../api/contracts/budget.js';
import type { Usage } from '../api/contracts/fix.js';
import type { SpendGuard } from '../api/spend.js';

/** What the run spent on fixers so far. */
export interface SpendTotals {
  calls: number;
  costUsd: number;
}

const money = (usd: number): string => `$${usd.toFixed(usd < 1 ? 4 : 2)}`;

/**
 * The run's spend, shared by every fixer of every project: the engine records what each attempt
 * spent, LLM fixers ask it before each call (`refusal`), and calls in progress stop when the time
 * budget runs out (`signal`). Fixers that must not be asked again in this run (an endpoint that
 * keeps failing, a spent budget) are remembered here too, with the reason given once.
 */
export class RunSpend implements SpendGuard {
  private readonly controller = new AbortController();
  private readonly timer: NodeJS.Timeout | undefined;
  private readonly skipped = new Map<string, string>();
  readonly totals: SpendTotals = { calls: 0, costUsd: 0 };

  constructor(
    private readonly limits: BudgetConfig = {},
    private readonly startedAt = Date.now(),
  ) {
    if (limits.maxWallMs !== undefined) {
      const left = Math.max(0, startedAt + limits.maxWallMs - Date.now());
      this.timer = setTimeout(() => this.controller.abort(this.wallReason()), left);
      this.timer.unref();
    }
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  private wallReason(): string {
    return `the run's time budget is spent (budget.maxWallMs ${this.limits.maxWallMs} ms since the run started); raise budget.maxWallMs in the config to let fixers work longer`;
  }

  record(usage: Usage | undefined): void {
    if (!usage) return;
    this.totals.calls += usage.calls;
    this.totals.costUsd += usage.costUsd;
  }

  refusal(pending?: Usage): string | undefined {
    const { maxCalls, maxCostUsd, maxWallMs } = this.limits;
    const calls = this.totals.calls + (pending?.calls ?? 0);
    const cost = this.totals.costUsd + (pending?.costUsd ?? 0);
    if (maxCalls !== undefined && calls >= maxCalls)
      return `the run's budget of ${maxCalls} LLM call(s) is spent (budget.maxCalls; ${money(cost)} spent); raise budget.maxCalls in the config to allow more`;
    if (maxCostUsd !== undefined && cost >= maxCostUsd)
      return `the run's budget of ${money(maxCostUsd)} is spent (budget.maxCostUsd; ${money(cost)} over ${calls} call(s)); raise budget.maxCostUsd in the config to allow more`;
    if (maxWallMs !== undefined && (this.signal.aborted || Date.now() - this.startedAt >= maxWallMs))
      return this.wallReason();
    return undefined;
  }

  /** The fixer at this place of the ladder is not asked again in this run. */
  skip(fixerKey: string, reason: string): void {
    if (!this.skipped.has(fixerKey)) this.skipped.set(fixerKey, reason);
  }

  /** Why the fixer at this place of the ladder is out for the run, or undefined. */
  skippedFor(fixerKey: string): string | undefined {
    return this.skipped.get(fixerKey);
  }

  close(): void {
    if (this.timer) clearTimeout(this.timer);
  }
}
