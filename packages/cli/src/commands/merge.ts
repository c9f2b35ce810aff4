import { readdir, readFile, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import {
  BUILTIN_REPORTERS,
  findConfigFile,
  loadConfig,
  loadReporter,
  mergeReports,
  MergeError,
  newRunId,
  portableReport,
  rootSpellings,
  type LoadedConfig,
  type MergeInput,
} from '@suture/core/internal';
import { GateReportSchema, type Reporter } from '@suture/core';
import { createLogger } from '../logger.js';
import { UsageError } from '../exit.js';

export interface MergeFlags {
  out?: string;
  reporter?: string | string[];
  config?: string;
  json?: boolean;
}

async function readReport(file: string): Promise<MergeInput> {
  const source = dirname(file);
  const raw = JSON.parse(await readFile(file, 'utf8')) as { schemaVersion?: unknown };
  const version = GateReportSchema.shape.schemaVersion.value;
  if (raw.schemaVersion !== version)
    throw new UsageError(
      `${file} has report schema ${String(raw.schemaVersion)}; this suture merges schema ${version}: run suture run again with this version`,
    );
  const parsed = GateReportSchema.safeParse(raw);
  if (!parsed.success)
    throw new UsageError(`${file} is not a suture report: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
  return { source, report: parsed.data };
}

/** A run folder's report.json, or those of the run folders directly inside a folder (downloaded CI artifacts). */
async function reportsIn(dir: string): Promise<MergeInput[]> {
  const direct = join(dir, 'report.json');
  if (await stat(direct).catch(() => undefined)) return [await readReport(direct)];
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => {
    throw new UsageError(`${dir}: no such folder; give run folders (each holding a report.json)`);
  });
  const found: MergeInput[] = [];
  for (const e of entries.filter((x) => x.isDirectory()).sort((a, b) => a.name.localeCompare(b.name))) {
    const file = join(dir, e.name, 'report.json');
    if (await stat(file).catch(() => undefined)) found.push(await readReport(file));
  }
  if (!found.length)
    throw new UsageError(
      `${dir} holds no report.json, nor do its sub-folders; run suture run with the json reporter there`,
    );
  return found;
}

/** `suture merge <runs...>`: one report (json, JUnit, Markdown, patch, bugs) from the runs of shards or Nx tasks. */
export async function mergeCommand(runs: string[], flags: MergeFlags): Promise<number> {
  const file = flags.config ?? (await findConfigFile(process.cwd()));
  const loaded: LoadedConfig | undefined = file ? await loadConfig({ cwd: process.cwd(), file }) : undefined;
  const logger = createLogger();
  const inputs: MergeInput[] = [];
  for (const run of runs) inputs.push(...(await reportsIn(resolve(run))));
  const root = loaded?.dir ?? process.cwd();
  const runId = `merged-${newRunId()}`;
  const runDir = flags.out
    ? resolve(flags.out)
    : join(resolve(root, loaded?.config.outputDir ?? join('.suture', 'runs')), runId);
  const order = loaded?.config.projects.map((p) => p.name);
  let report;
  try {
    report = mergeReports(inputs, { runId, runDir, ...(order ? { order } : {}) });
  } catch (error) {
    if (error instanceof MergeError) throw new UsageError(error.message);
    throw error;
  }
  const missing = (order ?? []).filter((name) => !report.projects.some((p) => p.name === name));
  if (missing.length)
    logger.warn(`not in any merged run: ${missing.join(', ')} (fine for nx affected; a shard missing?)`);
  const names = flags.reporter
    ? (Array.isArray(flags.reporter) ? flags.reporter : [flags.reporter]).flatMap((r) => r.split(','))
    : [...BUILTIN_REPORTERS];
  const config = loaded ?? {
    file: join(root, 'suture.config.json'),
    dir: root,
    display: 'suture.config.json',
    config: undefined as never,
    warnings: [],
  };
  const output = { stream: process.stderr, env: process.env };
  const reporters: Reporter[] = [];
  for (const name of names)
    reporters.push(await loadReporter(name, `--reporter ${name}`, config, output, logger));
  for (const r of reporters) await r.onRunEnd?.(report, { runDir, root });
  process.stderr.write(
    `suture: merged ${inputs.length} run(s), ${report.projects.length} project(s) into ${runDir}\n`,
  );
  // As `run --json`: the report a script reads on stdout, every human line on stderr.
  if (flags.json)
    process.stdout.write(`${JSON.stringify(portableReport(report, rootSpellings(root)), null, 2)}\n`);
  return report.exitCode;
}
