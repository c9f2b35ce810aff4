import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { BUILTIN_REPORTERS, findConfigFile, loadConfig, loadReporter } from '@suture/core/internal';
import { GateReportSchema, type Reporter } from '@suture/core';
import { dirname } from 'node:path';
import { createLogger } from '../logger.js';
import { UsageError } from '../exit.js';

/** `suture report [runId]`: re-render the reports of an earlier run (the latest by default). */
export async function reportCommand(
  runId: string | undefined,
  flags: { config?: string; reporter?: string | string[] },
): Promise<number> {
  const file = flags.config ?? (await findConfigFile(process.cwd()));
  const loaded = file ? await loadConfig({ cwd: process.cwd(), file }) : undefined;
  const root = loaded?.dir ?? (file ? dirname(file) : process.cwd());
  const runsDir = join(root, loaded?.config.outputDir ?? '.suture/runs');
  const runs = (await readdir(runsDir).catch(() => [] as string[])).sort();
  const id = runId ?? runs[runs.length - 1];
  if (!id) throw new UsageError(`no earlier run in ${runsDir}; run \`suture run\` first`);
  if (!runs.includes(id))
    throw new UsageError(`no run "${id}" in ${runsDir}; runs: ${runs.slice(-5).join(', ') || 'none'}`);
  const runDir = join(runsDir, id);
  const text = await readFile(join(runDir, 'report.json'), 'utf8').catch(() => {
    throw new UsageError(`${runDir}/report.json is missing: that run was made without the json reporter`);
  });
  const raw = JSON.parse(text) as { schemaVersion?: unknown };
  const version = GateReportSchema.shape.schemaVersion.value;
  if (raw.schemaVersion !== version)
    throw new UsageError(
      `${runDir}/report.json has report schema ${String(raw.schemaVersion)}; this suture renders schema ${version} (project status "healed", outcome "reverted", plugin errors): run \`suture run\` again for a report it can render`,
    );
  const report = GateReportSchema.parse(raw);
  const names = flags.reporter
    ? Array.isArray(flags.reporter)
      ? flags.reporter
      : [flags.reporter]
    : [...BUILTIN_REPORTERS].filter((r) => r !== 'json');
  const logger = createLogger();
  const output = { stream: process.stdout, env: process.env };
  const fakeConfig = loaded ?? {
    file: join(root, 'suture.config.json'),
    dir: root,
    display: 'suture.config.json',
    config: undefined as never,
    warnings: [],
  };
  const reporters: Reporter[] = [];
  for (const name of names)
    reporters.push(await loadReporter(name, `--reporter ${name}`, fakeConfig, output, logger));
  for (const r of reporters) await r.onRunEnd?.(report, { runDir, root });
  return report.exitCode;
}
