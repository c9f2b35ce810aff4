// The next fixer of the ladder in the scenarios where claude cannot run: it knows the fix.
export default function localFixer() {
  return {
    name: 'local-fixer',
    apiVersion: 1,
    async propose() {
      return {
        verdict: 'edits',
        rationale: 'the discount starts at 10 units',
        edits: [{ file: 'shop/pricing.py', search: 'if units > 10:', replace: 'if units >= 10:' }],
      };
    },
  };
}
