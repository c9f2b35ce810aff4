import type { Failure, Scope, ScopeInput } from '../api/contracts/failure.js';
import type { AttemptSummary, EditPolicy, FixRequest, SourceSlice } from '../api/contracts/fix.js';
import type { RankedSources } from '../analysis/budget.js';
import { ScopeSchema } from '../api/contracts/failure.js';
import { rankedSources } from '../analysis/budget.js';
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
  return (await sourcesOf(root, failure, scope, tokenBudget)).slices;
}

/** `sourceSlices` and the ranked code of the scope the budget left out, with the reason. */
export async function sourcesOf(
  root: string,
  failure: Failure,
  scope: ScopeInput,
  tokenBudget: number,
): Promise<RankedSources> {
  const ranked = await rankByDefinitions(root, failure, ScopeSchema.parse(scope));
  return rankedSources(root, failure, ranked, tokenBudget * CHARS_PER_TOKEN);
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
  const { slices, omitted } = await sourcesOf(
    input.readRoot ?? input.project.root,
    input.failure,
    input.rawScope,
    input.tokenBudget,
  );
  return {
    project: input.project,
    failure: { ...input.failure, evidence: cleanEvidence(input.failure.evidence, input.project.root) },
    scope: input.scope,
    sources: slices,
    ...(omitted.length > 0 ? { omitted } : {}),
    // a copy: the loop's history grows after this request was sent
    history: [...input.history],
    policy: input.policy,
    attempt: input.attempt,
    maxAttempts: input.maxAttempts,
    tokenBudget: input.tokenBudget,
  };
}
