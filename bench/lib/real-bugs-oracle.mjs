// The fixer of the real-bug benchmark, loaded by path: an oracle that knows the fix commit. It
// records every request it gets (the failure's tests, the scope with its ranking, the source
// slices), then proposes the fixed version of each file the fix changed that is in the request's
// scope, whole. A fix that changed a file outside the scope is proposed without it, so the heal
// rate measures whether the scope holds the whole fix. It never reasons.
import { appendFileSync, readFileSync } from 'node:fs';

/** options: { truth: path of { files: { [path]: fixed text } }, log: path of a JSON-lines file } */
export default function oracle(options) {
  const truth = JSON.parse(readFileSync(options.truth, 'utf8'));
  return {
    name: 'suture-bench-oracle',
    apiVersion: 1,
    async propose(request) {
      appendFileSync(
        options.log,
        `${JSON.stringify({
          tests: request.failure.tests,
          kind: request.failure.kind,
          attempt: request.attempt,
          scope: request.scope,
          sources: request.sources.map(({ file, startLine, endLine, text, reason }) => ({
            file,
            startLine,
            endLine,
            chars: text.length,
            reason,
          })),
        })}\n`,
      );
      const inScope = new Set(request.scope.entries.map((e) => e.file));
      const edits = Object.entries(truth.files)
        .filter(([file]) => inScope.has(file))
        .map(([file, content]) => ({ file, content }));
      if (edits.length === 0)
        return { verdict: 'unfixable', diagnosis: 'no file the fix changed is in the scope' };
      return { verdict: 'edits', edits, rationale: 'the fix commit' };
    },
  };
}
