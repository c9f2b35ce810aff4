import { AgentInputError, proposeHeal } from '@suture/core/internal';
import { createLogger } from '../logger.js';
import { UsageError } from '../exit.js';

export interface HealFlags {
  session?: string;
  path?: string | string[];
  project?: string | string[];
  test?: string | string[];
  fixer?: string | string[];
  maxAttempts?: number | string;
  strategy?: string;
  /** The arguments as JSON (the suture_heal tool's), or `-` to read them from stdin. */
  input?: string;
  config?: string;
  quiet?: boolean;
}

const list = (v: string | string[] | undefined): string[] | undefined =>
  v === undefined ? undefined : (Array.isArray(v) ? v : [v]).map(String).filter(Boolean);

async function readInput(value: string): Promise<unknown> {
  const text = value === '-' ? await readStdin() : value;
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new UsageError(
      `--input is not JSON (${(error as Error).message}); give the suture_heal arguments as an object`,
    );
  }
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** The heal's arguments from the flags, or from `--input` (flags given as well are refused). */
export async function healArguments(description: string | undefined, flags: HealFlags): Promise<unknown> {
  if (flags.input !== undefined) {
    if (description !== undefined)
      throw new UsageError('give the change description either as an argument or inside --input, not both');
    return readInput(String(flags.input));
  }
  const maxAttempts = flags.maxAttempts === undefined ? undefined : Number(flags.maxAttempts);
  return {
    change_description: description ?? '',
    ...(flags.session ? { session_id: String(flags.session) } : {}),
    ...(list(flags.path) ? { allowed_paths: list(flags.path) } : {}),
    ...(list(flags.project) ? { projects: list(flags.project) } : {}),
    ...(list(flags.test) ? { tests: list(flags.test) } : {}),
    ...(list(flags.fixer) ? { fixers: list(flags.fixer) } : {}),
    ...(maxAttempts !== undefined ? { max_attempts: maxAttempts } : {}),
    ...(flags.strategy ? { strategy: String(flags.strategy) } : {}),
  };
}

/**
 * `suture heal "<what changed>"`: the propose-only heal. Prints the JSON answer (fixed,
 * candidates or unfixable, with a session id) on stdout, progress on stderr; writes none of the
 * project's files. Exit 0 when fixed, 1 otherwise, 2 on a bad argument.
 */
export async function healCommand(description: string | undefined, flags: HealFlags): Promise<number> {
  const args = await healArguments(description, flags);
  const controller = new AbortController();
  const onSignal = (): void => controller.abort();
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    const answer = await proposeHeal(args, {
      cwd: process.cwd(),
      ...(flags.config ? { configFile: flags.config } : {}),
      logger: createLogger(),
      signal: controller.signal,
      ...(flags.quiet ? {} : { onProgress: (m: string) => process.stderr.write(`suture heal: ${m}\n`) }),
    });
    process.stdout.write(`${JSON.stringify(answer, null, 2)}\n`);
    return answer.status === 'fixed' ? 0 : 1;
  } catch (error) {
    if (error instanceof AgentInputError) throw new UsageError(error.message);
    if (controller.signal.aborted) return 130;
    throw error;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}
