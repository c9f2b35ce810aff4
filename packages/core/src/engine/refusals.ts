import { createHash } from 'node:crypto';
import type { FixRequest } from '../api/contracts/fix.js';
import type { AttemptVerdict } from '../api/contracts/report.js';

/** Verdicts that say a fixer's answer to a request was no use; the same request would get the same answer. */
const REFUSALS: ReadonlySet<AttemptVerdict> = new Set<AttemptVerdict>([
  'unfixable',
  'refused',
  'failed-validation',
  'repeated-patch',
]);

/** Where a request was answered and refused, for the attempt record of the request not sent again. */
export interface Refusal {
  project: string;
  failure: string;
  attempt: number;
  verdict: AttemptVerdict;
  reason?: string;
}

function stable(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stable);
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value)
        .filter(([, v]) => v !== undefined)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([k, v]) => [k, stable(v)]),
    );
  return value;
}

/**
 * A hash of what a request asks the fixer: the failure, the scope, the source, the history and
 * the policy. The attempt counters and the labels of where it comes from (project name and root,
 * the failure's project-prefixed id) are left out: they do not change the answer, so a copy of the
 * same code failing the same way in another project is the same request.
 */
export function requestKey(request: FixRequest): string {
  const { attempt: _attempt, maxAttempts: _max, project, failure, history, ...rest } = request;
  const { id: _id, ...content } = failure;
  const normalised = {
    ...rest,
    language: project.language,
    failure: content,
    history: history.map(({ attempt: _n, ...h }) => h),
  };
  return createHash('sha256')
    .update(JSON.stringify(stable(normalised)))
    .digest('hex');
}

/**
 * The requests each fixer of the ladder answered and had refused during one run, so that the same
 * request is not paid for twice. Fixers are keyed by their place in the ladder: the same package
 * may appear twice with other options (another model).
 */
export class RefusalMemory {
  private readonly refused = new Map<string, Refusal>();

  /** The key of a request to a fixer; take it before the request is sent. */
  key(fixerKey: string, request: FixRequest): string {
    return `${fixerKey}\n${requestKey(request)}`;
  }

  find(key: string): Refusal | undefined {
    return this.refused.get(key);
  }

  /** Keeps the answer when it was a refusal; healed, product-bug and fixer errors are not. */
  remember(key: string, refusal: Refusal): void {
    if (REFUSALS.has(refusal.verdict) && !this.refused.has(key)) this.refused.set(key, refusal);
  }
}
