import type { GateReport } from '../contracts/report.js';
import type { Logger, Reporter, RunEndContext } from '../plugin/types.js';
import { errorMessage } from '../plugin/errors.js';

type HookName = Exclude<keyof Reporter, 'name' | 'apiVersion' | 'onRunEnd'>;
type HookEvent<K extends HookName> = Parameters<NonNullable<Reporter[K]>>[0];

/** Fans events out to reporters in config order; a reporter that throws is logged, never fatal. */
export class Emitter {
  constructor(
    private readonly reporters: readonly Reporter[],
    private readonly logger: Logger,
  ) {}

  async emit<K extends HookName>(hook: K, event: HookEvent<K>): Promise<void> {
    for (const reporter of this.reporters) {
      const fn = reporter[hook] as ((e: HookEvent<K>) => void | Promise<void>) | undefined;
      if (!fn) continue;
      try {
        await fn.call(reporter, event);
      } catch (error) {
        this.logger.warn(`reporter ${reporter.name} failed in ${hook}: ${errorMessage(error)}`);
      }
    }
  }

  async end(report: GateReport, context: RunEndContext): Promise<void> {
    for (const reporter of this.reporters) {
      if (!reporter.onRunEnd) continue;
      try {
        await reporter.onRunEnd(report, context);
      } catch (error) {
        this.logger.warn(`reporter ${reporter.name} failed in onRunEnd: ${errorMessage(error)}`);
      }
    }
  }
}
