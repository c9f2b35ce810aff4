import type { GateReport, PluginErrorEntry } from '../api/contracts/report.js';
import type { Logger, PluginBase, Reporter, RunEndContext } from '../api/plugin.js';
import { errorMessage } from '../api/errors.js';
import { redactDeep, type Redactor } from '../safety/redact.js';
import { mergePluginErrors, pluginErrorEntry } from './plugin-errors.js';

type HookName = Exclude<keyof Reporter, keyof PluginBase | 'onRunEnd'>;
type HookEvent<K extends HookName> = Parameters<NonNullable<Reporter[K]>>[0];

/** The project and the thing an event is about, for the report of a reporter that failed on it. */
function aboutEvent(event: unknown): { project?: string; subject?: string } {
  const e = (event ?? {}) as {
    project?: string | { name: string };
    test?: { id: string };
    round?: { kind: string };
    failure?: { title: string };
    attempt?: number | { attempt: number };
  };
  const project = typeof e.project === 'string' ? e.project : e.project?.name;
  const attempt = typeof e.attempt === 'number' ? e.attempt : e.attempt?.attempt;
  const subject = e.test
    ? `test ${e.test.id}`
    : e.round
      ? `the ${e.round.kind} run`
      : e.failure
        ? `"${e.failure.title}"${attempt ? `, attempt ${attempt}` : ''}`
        : undefined;
  return { ...(project ? { project } : {}), ...(subject ? { subject } : {}) };
}

/**
 * Fans events out to reporters in config order. A reporter that throws is logged and never stops
 * the gate; what it failed on is kept for the report (`pluginErrors`).
 */
export class Emitter {
  private readonly failed: PluginErrorEntry[] = [];

  constructor(
    private readonly reporters: readonly Reporter[],
    private readonly logger: Logger,
    /** Events carry test output and evidence: secrets are masked before any reporter sees them. */
    private readonly redact: Redactor = (text) => text,
  ) {}

  /** The reporters that failed so far, one entry per reporter, hook and message. */
  get pluginErrors(): PluginErrorEntry[] {
    return mergePluginErrors(this.failed);
  }

  private record(reporter: Reporter, hook: string, error: unknown, event?: unknown): PluginErrorEntry {
    this.logger.warn(`reporter ${reporter.name} failed in ${hook}: ${errorMessage(error)}`);
    const entry = pluginErrorEntry(
      { plugin: reporter.name, kind: 'reporter', phase: hook, ...aboutEvent(event) },
      error,
    );
    return redactDeep(entry, this.redact);
  }

  /** Whether any reporter has this hook. */
  wants(hook: HookName): boolean {
    return this.reporters.some((r) => typeof r[hook] === 'function');
  }

  /** Deliveries in the order `emit` was called: a hook is awaited before the next one starts. */
  private queue: Promise<void> = Promise.resolve();

  /**
   * Sends an event to every reporter. Streamed events (a test result while the runner still runs)
   * and projects gated side by side call this without waiting; the queue still hands each reporter
   * one event at a time, in the order they were emitted.
   */
  emit<K extends HookName>(hook: K, event: HookEvent<K>): Promise<void> {
    // An event no reporter takes is neither redacted nor queued: a suite of thousands of tests
    // streams as many results.
    if (!this.wants(hook)) return Promise.resolve();
    const safe = redactDeep(event, this.redact);
    const delivered = this.queue.then(() => this.deliver(hook, safe));
    this.queue = delivered.catch(() => undefined);
    return delivered;
  }

  private async deliver<K extends HookName>(hook: K, safe: HookEvent<K>): Promise<void> {
    for (const reporter of this.reporters) {
      const fn = reporter[hook] as ((e: HookEvent<K>) => void | Promise<void>) | undefined;
      if (!fn) continue;
      try {
        await fn.call(reporter, safe);
      } catch (error) {
        this.failed.push(this.record(reporter, hook, error, safe));
      }
    }
  }

  /**
   * Calls every `onRunEnd`. A reporter that fails there is added to the report the reporters after
   * it get (the ones before it have already written theirs); returns the report with all of them.
   */
  async end(report: GateReport, context: RunEndContext): Promise<GateReport> {
    await this.queue;
    let current = report;
    for (const reporter of this.reporters) {
      if (!reporter.onRunEnd) continue;
      try {
        await reporter.onRunEnd(current, context);
      } catch (error) {
        const entry = this.record(reporter, 'onRunEnd', error);
        current = { ...current, pluginErrors: mergePluginErrors([...current.pluginErrors, entry]) };
      }
    }
    return current;
  }
}
