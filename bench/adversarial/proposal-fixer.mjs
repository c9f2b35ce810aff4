// The fixer of the adversarial benchmark, loaded by path: it answers the first request with the
// proposal in its options (as an LLM fixer might, hostile or honest) and gives up after that.
export default function proposal(options) {
  let answered = false;
  return {
    name: 'suture-bench-proposal',
    apiVersion: 1,
    async propose() {
      if (answered) return { verdict: 'unfixable', diagnosis: 'one proposal per case' };
      answered = true;
      return { verdict: 'edits', edits: options.edits, rationale: options.rationale ?? 'proposed fix' };
    },
  };
}
