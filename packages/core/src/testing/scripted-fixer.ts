import type { FixProposalInput, FixRequest } from '../api/contracts/fix.js';
import { API_VERSION, type Fixer, type FixerContext } from '../api/plugin.js';

type Literal<T> = T extends readonly (infer U)[]
  ? readonly Literal<U>[]
  : T extends object
    ? { readonly [K in keyof T]: Literal<T[K]> }
    : T;

/** A proposal as a test writes it: `as const` literals are welcome. */
export type ScriptedProposal = Literal<FixProposalInput>;

export type ScriptedStep =
  ScriptedProposal | Error | ((request: FixRequest) => ScriptedProposal | Promise<ScriptedProposal>);

export interface ScriptedFixer extends Fixer {
  /** Every request the fixer received, in order (for assertions). */
  readonly requests: FixRequest[];
}

/**
 * A fixer for tests that returns the given proposals in order (an Error step throws; a function
 * step is called with the request). After the script runs out it answers `unfixable`.
 */
export function scriptedFixer(steps: readonly ScriptedStep[], name = 'scripted-fixer'): ScriptedFixer {
  const requests: FixRequest[] = [];
  let next = 0;
  return {
    name,
    apiVersion: API_VERSION,
    requests,
    async propose(request: FixRequest, _ctx: FixerContext): Promise<FixProposalInput> {
      requests.push(request);
      const step = steps[next++];
      if (step === undefined) return { verdict: 'unfixable', diagnosis: 'the script has no more steps' };
      if (step instanceof Error) throw step;
      // the engine validates every proposal with zod and never mutates it
      return (typeof step === 'function' ? await step(request) : step) as FixProposalInput;
    },
  };
}
