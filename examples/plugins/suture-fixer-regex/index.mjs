// A third-party suture fixer, written the way a plugin author would: a factory that validates its
// options with zod from @suture/core and returns a plain Fixer object. It never writes files.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { API_VERSION, z } from '@suture/core';

const OptionsSchema = z
  .object({
    rules: z
      .array(
        z
          .object({
            file: z.string().optional(),
            pattern: z.string().min(1),
            replace: z.string(),
            flags: z.string().default(''),
          })
          .strict(),
      )
      .min(1),
  })
  .strict();

export default function regexFixer(options = {}) {
  const { rules } = OptionsSchema.parse(options);
  return {
    name: 'suture-fixer-regex',
    apiVersion: API_VERSION,
    async propose(request) {
      const edits = [];
      for (const entry of request.scope.entries) {
        const before = await readFile(join(request.project.root, entry.file), 'utf8').catch(() => undefined);
        if (before === undefined) continue;
        let after = before;
        for (const rule of rules) {
          if (rule.file && rule.file !== entry.file) continue;
          after = after.replace(new RegExp(rule.pattern, rule.flags), rule.replace);
        }
        if (after !== before) edits.push({ file: entry.file, content: after });
      }
      if (edits.length === 0)
        return { verdict: 'unfixable', diagnosis: 'no configured pattern matches a file in scope' };
      return { verdict: 'edits', edits, rationale: `applied ${rules.length} configured replacement(s)` };
    },
  };
}
