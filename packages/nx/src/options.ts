import { z } from '@suture/core';

export const SutureNxOptionsSchema = z
  .object({
    /** Name of the inferred target (default `suture`). */
    targetName: z.string().min(1).default('suture'),
    /** The command that runs suture (default `suture`, the bin of @suture/cli on the PATH Nx gives tasks). */
    command: z.string().min(1).default('suture'),
    /** Extra arguments for `suture run`, e.g. `["--no-heal"]` or `["--fixer", "hints"]`. */
    args: z.array(z.string()).default([]),
    /** More cache inputs for every suture target, in Nx's input syntax. */
    inputs: z.array(z.union([z.string(), z.record(z.string(), z.unknown())])).default([]),
  })
  .strict();

export type SutureNxOptions = z.input<typeof SutureNxOptionsSchema>;
export type ResolvedSutureNxOptions = z.output<typeof SutureNxOptionsSchema>;

/** Parses the plugin's options from nx.json, naming the key and the expected type on a mistake. */
export function parseOptions(raw: unknown): ResolvedSutureNxOptions {
  const parsed = SutureNxOptionsSchema.safeParse(raw ?? {});
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  throw new Error(
    `@suture/nx (nx.json#plugins, options.${issue.path.join('.') || '(root)'}): ${issue.message}; see the options table in the @suture/nx README`,
  );
}
