import type { Failure, Scope, ScopeInput } from '../api/contracts/failure.js';
import type { AttemptSummary, EditPolicy, FixRequest, SourceSlice } from '../api/contracts/fix.js';
import { ScopeSchema } from '../api/contracts/failure.js';
import { rankedSlices } from '../analysis/budget.js';
import { cleanEvidence, EVIDENCE_LINES } from './evidence.js';
import { rankByDefinitions } from './symbol-ranges.js';

const CHARS_PER_TOKEN = 4;

/** The last `max` lines of a text, with a marker when lines were dropped. */
export function trimEvidence(text: string, max = EVIDENCE_LINES): string {
  const lines = text.split('\n');
  if (lines.length <= max) return text;
  return [`[... ${lines.length - max} earlier lines omitted ...]`, ...lines.slice(-max)].join('\n');
}

/**
 * Source slices of the scope within a token budget, spent function by function in rank order
 * (`rankedSlices`). A scope its analyzer did not rank is ranked here from where its symbols are
 * defined and where the failure's frames are, so every analyzer's scope is sent the same way:
 * the likeliest functions rather than whole files.
 */
export async function sourceSlices(
  root: string,
  failure: Failure,
  scope: ScopeInput,
  tokenBudget: number,
): Promise<SourceSlice[]> {
  const ranked = await rankByDefinitions(root, failure, ScopeSchema.parse(scope));
  return rankedSlices(root, failure, ranked, tokenBudget * CHARS_PER_TOKEN);
}

export interface BuildRequestInput {
  project: { name: string; root: string; language?: string };
  /** Where the sources are read when not under project.root: a workspace's view. */
  readRoot?: string;
  failure: Failure;
  scope: Scope;
  rawScope: ScopeInput;
  history: AttemptSummary[];
  policy: EditPolicy;
  attempt: number;
  maxAttempts: number;
  tokenBudget: number;
}

export async function buildFixRequest(input: BuildRequestInput): Promise<FixRequest> {
  return {
    project: input.project,
    failure: { ...input.failure, evidence: cleanEvidence(input.failure.evidence, input.project.root) },
    scope: input.scope,
    sources: await sourceSlices(
      input.readRoot ?? input.project.root,
      input.failure,
      input.rawScope,
      input.tokenBudget,
    ),
    // a copy: the loop's history grows after this request was sent
    history: [...input.history],
    policy: input.policy,
    attempt: input.attempt,
    maxAttempts: input.maxAttempts,
    tokenBudget: input.tokenBudget,
  };
}
