import { readdir, rm } from 'node:fs/promises';
import { basename, dirname, resolve } from 'node:path';
import {
  createGateOptions,
  loadConfig,
  newRunId,
  portableReport,
  rootSpellings,
  runGate,
} from '@suture/core/internal';
import { type GateMode } from '@suture/core';
import { createLogger } from '../logger.js';
import { UsageError } from '../exit.js';
import { parseShard, shardHistory, shardRunId } from '../shard.js';
import { partLabel, partRunner, planShardParts } from '../shard-files.js';
import { attachRunUi, type RunUi, type UiFlags } from './ui-run.js';

export interface RunFlags extends UiFlags {
  fix?: boolean;
  heal?: boolean;
  /** false with `--no-block`: failures that remain exit 0. */
  block?: boolean;
  fixer?: string | string[];
  maxAttempts?: number;
  /** `--retries N`: flaky re-runs of failed tests (none by default with `--no-heal`). */
  retries?: number;
  reporter?: string | string[];
  json?: boolean;
  concurrency?: number;
  config?: string;
  /** `i/n`: gate only the i-th of n deterministic shards of the projects. */
  shard?: string;
  /** `--changed [ref]`: true without a ref. */
  changed?: string | boolean;
  /** `--record`: green runs add to the selection record. */
  record?: boolean;
  /** This run's folder instead of a new one under the runs folder (an Nx task's cached output). */
  out?: string;
}

const list = (v: string | string[] | undefined): string[] | undefined =>
  v === undefined
    ? undefined
    : (Array.isArray(v) ? v : [v]).flatMap((x) => String(x).split(',')).filter(Boolean);

function positiveInt(name: string, value: unknown): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1)
    throw new UsageError(`--${name} expects a positive integer, got "${String(value)}"`);
  return n;
}

function retriesFlag(value: unknown): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 5)
    throw new UsageError(`--retries expects an integer from 0 to 5, got "${String(value)}"`);
  return n;
}

function changedFlag(value: string | boolean | undefined): { changed?: string | true } {
  if (value === undefined || value === false) return {};
  if (value === true || value === '') return { changed: true };
  return { changed: String(value) };
}

/**
 * The folder `--out` names, emptied when it holds an earlier run (its report.json), so no stale
 * report of a project this run leaves out survives; any other non-empty folder is refused.
 */
async function claimRunDir(out: string): Promise<string> {
  const entries = await readdir(out).catch(() => [] as string[]);
  if (entries.length === 0) return out;
  if (!entries.includes('report.json'))
    throw new UsageError(
      `--out ${out}: the folder holds files that are not a suture run's; name an empty or new folder`,
    );
  await rm(out, { recursive: true, force: true });
  return out;
}

/** `suture run`: gate the projects; exit 0 green, 1 failures remain (0 with `--no-block` or `blocking: false`). */
export async function runCommand(projects: string[], flags: RunFlags): Promise<number> {
  if (flags.fix && flags.heal === false)
    throw new UsageError('--fix and --no-heal contradict each other: --no-heal never writes');
  const mode: GateMode = flags.heal === false ? 'no-heal' : flags.fix ? 'fix' : 'check';
  const logger = createLogger();
  const controller = new AbortController();
  let interrupts = 0;
  const onSignal = (signal: NodeJS.Signals): void => {
    interrupts++;
    if (interrupts > 1) {
      process.stderr.write(
        `\nsuture: ${signal} again: exiting now; run \`suture recover\` to restore the tree\n`,
      );
      process.exit(130);
    }
    process.stderr.write(
      `\nsuture: ${signal}: stopping the tests and restoring the tree (press Ctrl-C again to exit at once)\n`,
    );
    controller.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  let ui: RunUi | undefined;
  try {
    // The handlers are in place before the config and its plugins load: a Ctrl-C that early
    // ends the command with 130 and its message, before anything is started.
    const loaded = await loadConfig({ cwd: process.cwd(), ...(flags.config ? { file: flags.config } : {}) });
    for (const warning of loaded.warnings) logger.warn(warning);
    const options = await createGateOptions(loaded, {
      mode,
      projects,
      ...(list(flags.fixer) ? { fixers: list(flags.fixer)! } : {}),
      ...(positiveInt('max-attempts', flags.maxAttempts)
        ? { maxAttempts: positiveInt('max-attempts', flags.maxAttempts)! }
        : {}),
      ...(retriesFlag(flags.retries) !== undefined ? { retries: retriesFlag(flags.retries)! } : {}),
      ...(list(flags.reporter) ? { reporters: list(flags.reporter)! } : {}),
      ...(positiveInt('concurrency', flags.concurrency)
        ? { concurrency: positiveInt('concurrency', flags.concurrency)! }
        : {}),
      ...(flags.block === false ? { blocking: false } : {}),
      ...changedFlag(flags.changed),
      ...(flags.record ? { record: true } : {}),
      logger,
      output: { stream: process.stderr, env: process.env },
      signal: controller.signal,
    });
    if (flags.shard !== undefined) {
      const shard = parseShard(String(flags.shard));
      const history = await shardHistory(options.outputDir);
      const plan = planShardParts(
        options.projects.map((p) => ({ name: p.name, splittable: p.runner.supportsFileSelection === true })),
        history.durations,
        history.files,
        shard.count,
      );
      const mine = plan[shard.index - 1]!;
      options.projects = options.projects.flatMap((p) => {
        const part = mine.find((x) => x.project === p.name);
        return part ? [{ ...p, runner: partRunner(p.runner, part) }] : [];
      });
      options.runId = shardRunId(newRunId(), shard);
      logger.info(
        `shard ${shard.index}/${shard.count}: ${mine.map(partLabel).join(', ') || 'no project'} (durations from ${history.source ?? 'no earlier run'})`,
      );
    }
    if (flags.out !== undefined) {
      const out = await claimRunDir(resolve(String(flags.out)));
      options.outputDir = dirname(out);
      options.runId = basename(out);
    }
    if (controller.signal.aborted) return 130;
    if (flags.ui) ui = await attachRunUi(options, flags, () => onSignal('SIGINT'));
    const report = await runGate(options);
    // the report.json a run writes: repository-relative, naming no path of this machine
    if (flags.json)
      process.stdout.write(
        `${JSON.stringify(portableReport(report, rootSpellings(options.root)), null, 2)}\n`,
      );
    if (controller.signal.aborted) return 130;
    return report.exitCode;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await ui?.finish();
  }
}
