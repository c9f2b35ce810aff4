import {
  FixProposalSchema,
  UsageSchema,
  type FixProposal,
  type FixRequest,
  type Usage,
} from '../api/contracts/fix.js';
import { errorMessage, usageOfError } from '../api/errors.js';
import { isFixerUnavailable } from '../api/fixer-unavailable.js';
import type { Fixer, FixerContext } from '../api/plugin.js';
import { formatDuration } from '../text/duration.js';

/**
 * A fixer's answer. `error` when there is no usable proposal; `broken` tells a fixer that threw or
 * broke the FixProposal contract (a plugin error for the report) from a run interrupted while it
 * worked (not the fixer's fault).
 */
export type FixerAnswer =
  | { proposal: FixProposal }
  | {
      error: string;
      broken?: { cause: unknown };
      usage?: Usage;
      /** The fixer is out for the rest of the run (see FixerUnavailableError). */
      unavailable?: true;
    };

/** How long a fixer may take to answer, and the config key that says so (for the reason). */
export interface FixerLimit {
  ms: number;
  setting: string;
}

/**
 * Asks a fixer, never letting its failure escape: a throw or garbage becomes a reason, and a
 * fixer still working at its time limit is stopped (its signal aborted) and given up.
 */
export async function askFixer(
  fixer: Fixer,
  request: FixRequest,
  context: FixerContext,
  limit?: FixerLimit,
): Promise<FixerAnswer> {
  // A signal per call: aborted when the gate is, and once the call is over, so a fixer's
  // leftover work (a CLI process, an HTTP stream) is cancelled instead of running on.
  const call = new AbortController();
  const onAbort = (): void => call.abort(context.signal.reason);
  context.signal.addEventListener('abort', onAbort, { once: true });
  if (context.signal.aborted) call.abort(context.signal.reason);
  const interrupted = new Error('the run was interrupted while the fixer was working');
  const aborted = new Promise<never>((_, reject) => {
    call.signal.addEventListener('abort', () => reject(interrupted), { once: true });
  });
  aborted.catch(() => undefined);
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    if (!limit) return;
    timer = setTimeout(
      () =>
        reject(
          new Error(
            `${fixer.name} gave no answer within ${formatDuration(limit.ms)} (${limit.setting}) and was stopped; raise ${limit.setting} if it needs longer`,
          ),
        ),
      limit.ms,
    );
  });
  late.catch(() => undefined);
  try {
    const raw = await Promise.race([
      fixer.propose(request, { ...context, signal: call.signal }),
      aborted,
      late,
    ]);
    const parsed = FixProposalSchema.safeParse(raw);
    if (!parsed.success) {
      const issues = parsed.error.issues
        .slice(0, 3)
        .map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`)
        .join('; ');
      const usage = UsageSchema.safeParse((raw as { usage?: unknown } | null)?.usage);
      const detail = `returned an invalid proposal: ${issues}`;
      return {
        error: `${fixer.name} ${detail}`,
        broken: { cause: detail },
        ...(usage.success ? { usage: usage.data } : {}),
      };
    }
    return { proposal: parsed.data };
  } catch (error) {
    const usage = usageOfError(error);
    // A fixer out for the run (budget spent, endpoint down) is not a broken plugin.
    const unavailable = isFixerUnavailable(error);
    return {
      error: errorMessage(error),
      ...(error === interrupted || unavailable ? {} : { broken: { cause: error } }),
      ...(usage ? { usage } : {}),
      ...(unavailable ? { unavailable: true as const } : {}),
    };
  } finally {
    clearTimeout(timer);
    context.signal.removeEventListener('abort', onAbort);
    call.abort();
  }
}
