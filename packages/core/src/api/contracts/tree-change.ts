import { z } from 'zod';

/**
 * A change a run made to the user's tree (or to `.git`'s hooks, config and info) that suture did
 * not write, and what suture did about it: patched or generated code, and in check mode a build
 * or configure step of the project's own, never leave such a change behind.
 */
export const TreeChangeSchema = z.object({
  /** Repository-relative (POSIX); a folder ends with `/`. */
  file: z.string(),
  change: z.enum(['created', 'modified', 'deleted']),
  /** Put back as it was (a created file or folder removed). */
  restored: z.boolean(),
  /** Why it was not put back. */
  reason: z.string().optional(),
  /** Where the bytes the run left are kept, under the run folder. */
  kept: z.string().optional(),
});
export type TreeChange = z.infer<typeof TreeChangeSchema>;
