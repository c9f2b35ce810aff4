import { UsageError } from '../exit.js';

/** What each `suture generate <kind>` module exports: its flags as cac parsed them, its exit code. */
export interface GenerateKindModule {
  generateCommand(flags: Record<string, unknown>): Promise<number>;
}

/** Each kind's module, named in full so a bundler sees it; loaded only when asked for. */
const KINDS: Record<string, () => Promise<GenerateKindModule>> = {
  api: () => import('./generate-api.js'),
  tests: () => import('./generate-tests.js'),
};

/**
 * `suture generate <kind>`: cac takes one word per command, so the kind is an argument and each
 * kind lives in its own module (`generate-<kind>.ts`).
 */
export async function generateCommand(kind: string, flags: Record<string, unknown>): Promise<number> {
  const load = Object.hasOwn(KINDS, kind) ? KINDS[kind] : undefined;
  if (!load)
    throw new UsageError(
      `suture generate: unknown kind "${kind}"; use one of ${Object.keys(KINDS)
        .map((k) => `\`suture generate ${k}\``)
        .join(', ')}`,
    );
  return (await load()).generateCommand(flags);
}
