import { join } from 'node:path';
import { ConfigSchema, type GateReport, type Logger, type PluginSpec } from '@suture/core';
import { createGateOptions, loadConfig, parseConfig, runGate, type LoadedConfig } from '@suture/core/host';
import { absoluteSpec, fixerEntry, judgeEntry, ownEntry } from './plugins.js';

export interface GateRun {
  /** The generated suite's folder. */
  outDir: string;
  cwd: string;
  baseUrl: string;
  /** Fixers after the judge and the hints: names from the command line. */
  fixers: string[];
  /** A suture config whose fixers, budget and secrets are used too. */
  configFile?: string;
  maxAttempts: number;
  /** Extra environment of the test process (the base URL). */
  env: Record<string, string>;
  stream: NodeJS.WritableStream;
  processEnv: NodeJS.ProcessEnv;
  signal?: AbortSignal;
}

/**
 * Gates the generated suite in fix mode: the real pytest runs it, the judge decides product bug
 * or script error first, fix-it hints and the configured LLM fixers come after, and heals are
 * kept in the generated files only (the engine writes them, through its journal).
 */
/** The fixers after the judge and the hints: the config's (hints aside), then those named on the command line, as loadable specs. */
export async function extraFixers(
  run: Pick<GateRun, 'cwd' | 'fixers' | 'configFile'>,
): Promise<{ specs: PluginSpec[]; fromDir: string; user?: LoadedConfig }> {
  const user = run.configFile ? await loadConfig({ cwd: run.cwd, file: run.configFile }) : undefined;
  const fromDir = user?.dir ?? run.cwd;
  const specs: PluginSpec[] = [];
  for (const spec of user?.config.fixers ?? []) {
    const name = typeof spec === 'string' ? spec : spec[0];
    if (name === 'hints' || name === '@suture/fixer-hints') continue;
    specs.push(await absoluteSpec(spec, fromDir, run.cwd));
  }
  for (const name of run.fixers) specs.push(await fixerEntry(name, run.cwd));
  return { specs, fromDir, ...(user ? { user } : {}) };
}

export async function gateSuite(run: GateRun): Promise<GateReport> {
  const { specs: extra, fromDir, user } = await extraFixers(run);
  const raw = {
    projects: [
      {
        name: 'api',
        root: run.outDir,
        runner: [ownEntry('@suture/runner-pytest'), { env: run.env, testTimeoutMs: 120_000 }],
      },
    ],
    fixers: [judgeEntry(), ownEntry('@suture/fixer-hints'), ...extra],
    heal: {
      maxAttempts: run.maxAttempts,
      editable: 'tests',
      allowedPaths: ['test_*.py'],
      allowNewFiles: false,
      regression: true,
    },
    reporters: ['console', 'json', 'junit', 'markdown', ownEntry('@suture/reporter-html')],
    concurrency: 1,
    ...isolation(),
    ...(user?.config.budget ? { budget: user.config.budget } : {}),
    ...(user?.config.secrets ? { secrets: user.config.secrets } : {}),
  };
  const loaded: LoadedConfig = {
    file: user?.file ?? join(run.outDir, 'suture.config.json'),
    dir: fromDir,
    display: user?.display ?? 'suture generate api',
    config: parseConfig(raw, 'suture generate api'),
    warnings: [],
  };
  const options = await createGateOptions(loaded, {
    mode: 'fix',
    logger: streamLogger(run.stream),
    output: { stream: run.stream as never, env: run.processEnv },
    ...(run.signal ? { signal: run.signal } : {}),
  });
  // the suite's own folder holds its lock, journal and runs, wherever the config came from
  options.root = run.outDir;
  options.outputDir = join(run.outDir, '.suture', 'runs');
  options.env = run.processEnv;
  return runGate(options);
}

/** Warnings and errors of the gate on the progress stream; the console reporter says the rest. */
function streamLogger(stream: NodeJS.WritableStream): Logger {
  const none = (): void => undefined;
  return {
    debug: none,
    info: none,
    warn: (m) => void stream.write(`suture: ${m}\n`),
    error: (m) => void stream.write(`suture: ${m}\n`),
  };
}

/**
 * API tests exist to reach a service over the network with a credential, so the suite runs
 * unsandboxed (no network namespace, its environment as given), and in place: it is a folder
 * suture just wrote, and the judge reads the exchanges the tests record there. Set only where
 * the core in use knows the keys.
 */
function isolation(): Record<string, string> {
  const keys = (ConfigSchema as unknown as { shape: Record<string, unknown> }).shape;
  return {
    ...('sandbox' in keys ? { sandbox: 'off' } : {}),
    ...('workspace' in keys ? { workspace: 'in-place' } : {}),
  };
}
