import { UsageError } from '../exit.js';

/** What each `suture generate <kind>` module exports: its flags as cac parsed them, its exit code. */
export interface GenerateKindModule {
  generateCommand(flags: Record<string, unknown>): Promise<number>;
}

const KINDS = ['api', 'tests'] as const;

/**
 * `suture generate <kind>`: cac takes one word per command, so the kind is an argument and each
 * kind lives in its own module (`generate-<kind>.ts`), loaded only when asked for.
 */
export async function generateCommand(kind: string, flags: Record<string, unknown>): Promise<number> {
  if (!(KINDS as readonly string[]).includes(kind))
    throw new UsageError(
      `suture generate: unknown kind "${kind}"; use one of ${KINDS.map((k) => `\`suture generate ${k}\``).join(', ')}`,
    );
  const specifier = `./generate-${kind}.js`;
  let module: GenerateKindModule;
  try {
    module = (await import(specifier)) as GenerateKindModule;
  } catch (error) {
    const missing = (error as { code?: string }).code === 'ERR_MODULE_NOT_FOUND';
    // only this kind's own module: a dependency it lacks says so in its own words
    if (missing && String((error as Error).message).includes(`generate-${kind}.js`))
      throw new UsageError(`suture generate ${kind} is not part of this build of @suture/cli`);
    throw error;
  }
  return module.generateCommand(flags);
}
