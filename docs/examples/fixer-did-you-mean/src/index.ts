import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { API_VERSION, defineFixer, z, type Edit, type Fixer, type FixProposalInput } from '@suture/core';
import { suggestionsOf, type Suggestion } from './suggestions.js';

const OptionsSchema = z
  .object({
    /** At most this many renames in one proposal. */
    maxEdits: z.number().int().min(1).default(5),
  })
  .strict();
export type DidYouMeanOptions = z.input<typeof OptionsSchema>;

const word = (name: string): RegExp => new RegExp(`(?<![\\w$])${name}(?![\\w$])`, 'g');

/**
 * Renames `wrong` to `right` on the line the toolchain pointed at, as one search/replace edit
 * whose search text (the whole line) occurs once in the file; undefined when that cannot be said
 * without guessing.
 */
function renameOnLine(text: string, s: Suggestion): Extract<Edit, { search: string }> | undefined {
  const lines = text.split('\n');
  const line = lines[(s.line ?? 0) - 1];
  if (!s.file || line === undefined || (line.match(word(s.wrong)) ?? []).length !== 1) return undefined;
  if (text.split(line).length !== 2) return undefined;
  return { file: s.file, search: line, replace: line.replace(word(s.wrong), s.right) };
}

/**
 * A deterministic fixer: when the toolchain itself says "did you mean 'counter'?", rename the
 * name on the line it pointed at. Anything less certain is `unfixable`, so the next fixer of the
 * ladder (an LLM) gets the failure.
 */
export default function didYouMean(options: DidYouMeanOptions = {}): Fixer {
  const { maxEdits } = OptionsSchema.parse(options);
  return defineFixer({
    name: 'suture-fixer-did-you-mean',
    apiVersion: API_VERSION,
    // a failed assertion never comes with a spelling suggestion
    kinds: ['build', 'collection', 'syntax', 'import', 'exception'],
    async propose(request): Promise<FixProposalInput> {
      const inScope = new Set(request.scope.entries.map((e) => e.file));
      const found = suggestionsOf(request);
      const edits: Array<Extract<Edit, { search: string }>> = [];
      const skipped: string[] = [];
      for (const s of found) {
        if (!s.file || !inScope.has(s.file)) {
          skipped.push(`${s.wrong} -> ${s.right} in ${s.file ?? 'an unknown file'}, outside the scope`);
          continue;
        }
        // the engine's copy of the file: the request's source slice when it has the whole file
        const text =
          request.sources.find((src) => src.file === s.file && src.startLine === 1)?.text ??
          (await readFile(join(request.project.root, s.file), 'utf8'));
        const edit = renameOnLine(text, s);
        if (edit && !edits.some((e) => e.search === edit.search)) edits.push(edit);
        else if (!edit) skipped.push(`${s.wrong} is not once on ${s.file}:${s.line}`);
      }
      if (edits.length === 0)
        return {
          verdict: 'unfixable',
          diagnosis:
            found.length === 0
              ? 'the toolchain suggested no name'
              : `no suggestion could be applied: ${skipped.join('; ')}`,
          usage: { calls: 0, costUsd: 0 },
        };
      return {
        verdict: 'edits',
        edits: edits.slice(0, maxEdits),
        rationale: `the toolchain suggested: ${found.map((s) => `${s.right} for ${s.wrong}`).join(', ')}`,
        usage: { calls: 0, costUsd: 0 },
      };
    },
  });
}
