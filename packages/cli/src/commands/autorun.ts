import { isAbsolute, relative, resolve, sep } from 'node:path';
import { RollbackStrategySchema, type AutoRunReport, type RollbackStrategy } from '@suture/core';
import {
  autoRunDir,
  createGateOptions,
  loadConfig,
  runAutoRun,
  type AutoRunOptions,
  type GateProject,
  type GenerationSource,
  type LoadedConfig,
} from '@suture/core/internal';
import { UsageError } from '../exit.js';
import { createLogger } from '../logger.js';

/** Flags shared by `suture autorun` and `suture generate tests`. */
export interface AutoRunFlags {
  config?: string;
  project?: string;
  fixer?: string | string[];
  maxFixAttempts?: number | string;
  flakeRuns?: number | string;
  rollback?: string;
  json?: boolean;
}

export interface AutorunCommandFlags extends AutoRunFlags {
  after?: string;
  generated?: string | string[];
  target?: string | string[];
}

export const list = (v: unknown): string[] =>
  v === undefined ? [] : (Array.isArray(v) ? v : [v]).flatMap((x) => String(x).split(',')).filter(Boolean);

export function count(name: string, value: unknown, min: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min)
    throw new UsageError(`--${name} expects an integer of at least ${min}, got "${String(value)}"`);
  return n;
}

function rollbackOf(value: unknown): RollbackStrategy | undefined {
  if (value === undefined) return undefined;
  const parsed = RollbackStrategySchema.safeParse(value);
  if (!parsed.success)
    throw new UsageError(
      `--rollback expects one of ${RollbackStrategySchema.options.join(', ')}, got "${String(value)}"`,
    );
  return parsed.data;
}

const inside = (root: string, path: string): boolean => {
  const rel = relative(root, path);
  return !rel.startsWith('..') && !isAbsolute(rel);
};

/** The project a path (given from the current folder) lies in, or the one named by --project. */
export function pickProject(
  projects: readonly GateProject[],
  named: string | undefined,
  paths: readonly string[],
): GateProject {
  if (named) {
    const project = projects.find((p) => p.name === named);
    if (!project)
      throw new UsageError(
        `--project ${named}: the config defines ${projects.map((p) => p.name).join(', ')}`,
      );
    return project;
  }
  const first = paths[0] ? resolve(paths[0]) : process.cwd();
  const deepest = [...projects]
    .filter((p) => inside(p.root, first))
    .sort((a, b) => b.root.split(sep).length - a.root.split(sep).length)[0];
  if (deepest) return deepest;
  if (projects.length === 1) return projects[0]!;
  throw new UsageError(`${first} is in none of the configured projects; name one with --project`);
}

/** Paths given from the current folder, as project-relative POSIX paths inside the project. */
export function projectRelative(project: GateProject, paths: readonly string[]): string[] {
  return paths.map((p) => {
    const abs = resolve(p);
    if (!inside(project.root, abs))
      throw new UsageError(`${p} is outside the project ${project.name} (${project.root})`);
    return relative(project.root, abs).split(sep).join('/');
  });
}

export interface Prepared {
  loaded: LoadedConfig;
  project: GateProject;
  fixers: Awaited<ReturnType<typeof createGateOptions>>['fixers'];
  /** The config's sandbox, which every command of the auto-run runs in. */
  confinement: Pick<Awaited<ReturnType<typeof createGateOptions>>, 'sandbox' | 'sandboxEnv' | 'secrets'>;
}

export async function prepare(flags: AutoRunFlags, paths: readonly string[]): Promise<Prepared> {
  const logger = createLogger();
  const loaded = await loadConfig({ cwd: process.cwd(), ...(flags.config ? { file: flags.config } : {}) });
  const fixers = list(flags.fixer);
  const options = await createGateOptions(loaded, {
    mode: 'fix',
    ...(flags.project ? { projects: [flags.project] } : {}),
    ...(fixers.length ? { fixers } : {}),
    logger,
    output: { stream: process.stderr, env: process.env },
  });
  return {
    loaded,
    project: pickProject(options.projects, flags.project, paths),
    fixers: options.fixers,
    confinement: { sandbox: options.sandbox, sandboxEnv: options.sandboxEnv, secrets: options.secrets },
  };
}

/** The auto-run's sandbox options, from the config's. */
function confinementOf(prepared: Prepared): Pick<AutoRunOptions, 'sandbox' | 'sandboxEnv' | 'secretNames'> {
  const { sandbox, sandboxEnv, secrets } = prepared.confinement;
  return {
    ...(sandbox ? { sandbox } : {}),
    ...(sandboxEnv ? { sandboxEnv } : {}),
    ...(secrets?.names ? { secretNames: secrets.names.map((n) => new RegExp(n, 'i')) } : {}),
  };
}

/** Runs the auto-run, prints what it kept and where the reports are, and answers the exit code. */
export async function autoRunAndReport(
  prepared: Prepared,
  source: GenerationSource,
  target: string[],
  flags: AutoRunFlags & { generations?: number | string },
): Promise<number> {
  const controller = new AbortController();
  const onSignal = (): void => controller.abort();
  process.on('SIGINT', onSignal);
  let report: AutoRunReport;
  try {
    const maxFixAttempts = count('max-fix-attempts', flags.maxFixAttempts, 0);
    const flakeRuns = count('flake-runs', flags.flakeRuns, 1);
    const generations = count('generations', flags.generations, 1);
    const rollback = rollbackOf(flags.rollback);
    report = await runAutoRun({
      root: prepared.loaded.dir,
      outputDir: autoRunDir(prepared.loaded.dir),
      project: prepared.project,
      source,
      target,
      fixers: prepared.fixers,
      logger: createLogger(),
      signal: controller.signal,
      ...(maxFixAttempts !== undefined ? { maxFixAttempts } : {}),
      ...(flakeRuns !== undefined ? { flakeRuns } : {}),
      ...(generations !== undefined ? { generations } : {}),
      ...(rollback ? { rollback } : {}),
      ...confinementOf(prepared),
    });
  } finally {
    process.off('SIGINT', onSignal);
  }
  const out = flags.json ? process.stderr : process.stdout;
  for (const t of report.tests)
    out.write(`${t.verdict === 'kept' ? 'kept   ' : 'removed'} ${t.file}: ${t.reason}\n`);
  const { before, after } = report.coverage;
  out.write(
    `${report.totals.kept} of ${report.totals.generated} generated files kept; line coverage ${before.lines.covered}/${before.lines.total} -> ${after.lines.covered}/${after.lines.total}, branches ${before.branches.covered}/${before.branches.total} -> ${after.branches.covered}/${after.branches.total}\n`,
  );
  for (const i of report.rollback.instructions) out.write(`to do: ${i}\n`);
  if (report.error) out.write(`the auto-run failed: ${report.error}\n`);
  out.write(`report: ${relative(process.cwd(), report.runDir ?? '')}/report.md\n`);
  if (flags.json) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  return controller.signal.aborted ? 130 : report.exitCode;
}

/**
 * `suture autorun --after "<command>" --generated 'tests/gen/**'`: runs a user's own test
 * generator, then builds, runs, heals and filters what it wrote, as `suture generate tests` does.
 */
export async function autorunCommand(flags: AutorunCommandFlags): Promise<number> {
  if (!flags.after) throw new UsageError('suture autorun needs --after "<command that generates tests>"');
  const generated = list(flags.generated);
  if (generated.length === 0)
    throw new UsageError(
      "suture autorun needs --generated '<glob of the files the command writes>', e.g. 'tests/gen/**'",
    );
  const targets = list(flags.target);
  if (targets.length === 0)
    throw new UsageError(
      'suture autorun needs --target <source file> (repeatable): the code whose coverage the tests must raise',
    );
  const prepared = await prepare(flags, targets);
  const source: GenerationSource = { kind: 'command', command: flags.after, generated };
  return autoRunAndReport(prepared, source, projectRelative(prepared.project, targets), flags);
}
