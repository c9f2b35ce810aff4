import {
  FixProposalSchema,
  UsageSchema,
  type FixProposal,
  type FixRequest,
  type Usage,
} from '../api/contracts/fix.js';
import { errorMessage, usageOfError } from '../api/errors.js';
import type { Fixer, Logger } from '../api/plugin.js';

/**
 * A fixer's answer. `error` when there is no usable proposal; `broken` tells a fixer that threw or
 * broke the FixProposal contract (a plugin error for the report) from a run interrupted while it
 * worked (not the fixer's fault).
 */
export type FixerAnswer =
  { proposal: FixProposal } | { error: string; broken?: { cause: unknown }; usage?: Usage };

/** Asks a fixer, never letting its failure escape: a throw or garbage becomes a reason. */
export async function askFixer(
  fixer: Fixer,
  request: FixRequest,
  context: { signal: AbortSignal; logger: Logger; root: string },
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
  try {
    const raw = await Promise.race([
      fixer.propose(request, { signal: call.signal, logger: context.logger, root: context.root }),
      aborted,
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
    return {
      error: errorMessage(error),
      ...(error === interrupted ? {} : { broken: { cause: error } }),
      ...(usage ? { usage } : {}),
    };
  } finally {
    context.signal.removeEventListener('abort', onAbort);
    call.abort();
  }
}
