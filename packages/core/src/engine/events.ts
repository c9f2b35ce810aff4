import type { GateReport } from '../api/contracts/report.js';
import type { Logger, PluginBase, Reporter, RunEndContext } from '../api/plugin.js';
import { errorMessage } from '../api/errors.js';
import { redactDeep, type Redactor } from '../safety/redact.js';

type HookName = Exclude<keyof Reporter, keyof PluginBase | 'onRunEnd'>;
type HookEvent<K extends HookName> = Parameters<NonNullable<Reporter[K]>>[0];

/** Fans events out to reporters in config order; a reporter that throws is logged, never fatal. */
export class Emitter {
  constructor(
    private readonly reporters: readonly Reporter[],
    private readonly logger: Logger,
    /** Events carry test output and evidence: secrets are masked before any reporter sees them. */
    private readonly redact: Redactor = (text) => text,
  ) {}

  async emit<K extends HookName>(hook: K, event: HookEvent<K>): Promise<void> {
    if (this.reporters.length === 0) return;
    const safe = redactDeep(event, this.redact);
    for (const reporter of this.reporters) {
      const fn = reporter[hook] as ((e: HookEvent<K>) => void | Promise<void>) | undefined;
      if (!fn) continue;
      try {
        await fn.call(reporter, safe);
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
