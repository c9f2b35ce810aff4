import { UsageError } from '../exit.js';

type GeneratorOpenapi = typeof import('@suture/generator-openapi');

/** @suture/generator-openapi, which users install for `suture generate api`; a usage error that says so when it is not. */
async function loadGeneratorOpenapi(): Promise<GeneratorOpenapi> {
  try {
    return await import('@suture/generator-openapi');
  } catch (error) {
    if (
      (error as { code?: string }).code === 'ERR_MODULE_NOT_FOUND' &&
      String((error as Error).message).includes('@suture/generator-openapi')
    )
      throw new UsageError(
        'suture generate api needs @suture/generator-openapi; install it with `npm install -D @suture/generator-openapi`',
      );
    throw error;
  }
}

const text = (flags: Record<string, unknown>, name: string): string | undefined => {
  const v = flags[name];
  if (v === undefined || v === true || v === false) return undefined;
  return String(Array.isArray(v) ? v.at(-1) : v);
};

function number(flags: Record<string, unknown>, name: string, flag: string, min: number): number | undefined {
  const v = text(flags, name);
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isFinite(n) || n < min)
    throw new UsageError(`--${flag} expects a number of at least ${min}, got "${v}"`);
  return n;
}

function required(flags: Record<string, unknown>, name: string, flag: string, what: string): string {
  const v = text(flags, name);
  if (!v) throw new UsageError(`suture generate api needs --${flag}: ${what}`);
  return v;
}

/** `suture generate api`: an OpenAPI document to a healed pytest suite, its bug report and reports. */
export async function generateCommand(flags: Record<string, unknown>): Promise<number> {
  const spec = required(flags, 'spec', 'spec', 'the OpenAPI document (JSON or YAML)');
  const baseUrl = required(
    flags,
    'baseUrl',
    'base-url',
    'where the service answers, e.g. http://127.0.0.1:8000',
  );
  let protocol = '';
  try {
    protocol = new URL(baseUrl).protocol;
  } catch {
    // not a URL at all: said below
  }
  if (protocol !== 'http:' && protocol !== 'https:')
    throw new UsageError(`--base-url expects a URL such as http://127.0.0.1:8000, got "${baseUrl}"`);
  const fixers = [flags.fixer ?? []]
    .flat()
    .flatMap((f) => String(f).split(','))
    .filter(Boolean);
  const { generateApi } = await loadGeneratorOpenapi();
  const controller = new AbortController();
  const onSignal = (): void => controller.abort();
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    const result = await generateApi({
      spec,
      baseUrl,
      cwd: process.cwd(),
      stream: process.stderr,
      signal: controller.signal,
      rules: text(flags, 'rules'),
      data: text(flags, 'data'),
      server: text(flags, 'server'),
      out: text(flags, 'out'),
      config: text(flags, 'config'),
      authEnv: text(flags, 'authEnv'),
      seed: number(flags, 'seed', 'seed', 0),
      maxAttempts: number(flags, 'maxAttempts', 'max-attempts', 1),
      fixers,
      load:
        flags.load === true
          ? {
              durationS: number(flags, 'loadDuration', 'load-duration', 1),
              connections: number(flags, 'loadConnections', 'load-connections', 1),
              rate: number(flags, 'loadRate', 'load-rate', 1),
              maxP99Ms: number(flags, 'loadMaxP99', 'load-max-p99', 1),
              maxErrorRate: number(flags, 'loadMaxErrorRate', 'load-max-error-rate', 0),
            }
          : undefined,
    });
    if (controller.signal.aborted) return 130;
    return result.exitCode;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}
