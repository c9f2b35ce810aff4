import { readdir, readFile } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve } from 'node:path';
import {
  ReportInputSchema,
  RunInputSchema,
  type ReportAnswer,
  type RunAnswer,
} from '../../api/contracts/agent-tools.js';
import { GateReportSchema, type GateReport } from '../../api/contracts/report.js';
import { createGateOptions } from '../gate-options.js';
import { loadConfig } from '../load-config.js';
import { runGate } from '../../engine/gate.js';
import { NO_HEAL_REASON } from '../../engine/heal-groups.js';
import { analysisOf, projectsOf } from './analysis.js';
import { AgentInputError } from './errors.js';
import { checkSelection, parseToolInput } from './input.js';
import type { AgentCallOptions } from './propose-heal.js';
import { withRepository } from './repo-queue.js';
import { selectionRunner } from './session-plugins.js';
import { latestAnswer, loadSession } from './session-store.js';

/** Why a failure of a run that healed nothing was not healed, as an agent reads it. */
export const RUN_ONLY_REASON =
  'not healed: this run only ran the tests (suture_run, or suture run --no-heal); call suture_heal for a verified fix';

/**
 * A gate report as an agent reads it: the verdict, the totals and the failures, places (the run
 * folder too) repository-relative. A run that healed nothing (suture_run's) says so of each
 * failure, rather than naming a CLI flag the agent never gave.
 */
export function runAnswerOf(report: GateReport): RunAnswer {
  const t = report.totals;
  const failures = analysisOf([report], false).map((f) =>
    report.mode === 'no-heal' && f.reason === NO_HEAL_REASON ? { ...f, reason: RUN_ONLY_REASON } : f,
  );
  const runDir =
    report.runDir && isAbsolute(report.runDir) && isAbsolute(report.root)
      ? relative(report.root, report.runDir)
      : report.runDir;
  return {
    run_id: report.runId,
    status: report.error ? 'error' : report.exitCode === 0 ? 'green' : 'failing',
    exit_code: report.exitCode,
    duration_ms: report.durationMs,
    totals: { tests: t.tests, passed: t.passed, failed: t.failed, skipped: t.skipped, failures: t.failures },
    projects: projectsOf(report),
    failures,
    ...(runDir ? { run_dir: runDir } : {}),
    ...(report.error ? { error: report.error } : {}),
  };
}

/**
 * `suture_run`: the gate without healing (no fixer is asked, no project file is written; the
 * runners build and the run folder is written under `.suture/runs`, as for any run).
 */
export async function runForAgent(raw: unknown, options: AgentCallOptions): Promise<RunAnswer> {
  const input = parseToolInput(RunInputSchema, raw);
  const loaded = await loadConfig({
    cwd: options.cwd,
    ...(options.configFile ? { file: options.configFile } : {}),
  });
  const projects = checkSelection(loaded.config, loaded.display, input.projects, input.tests);
  return withRepository(
    loaded.dir,
    'run',
    async () => {
      const gate = await createGateOptions(loaded, {
        mode: 'no-heal',
        ...(projects ? { projects } : {}),
        reporters: ['json'],
        logger: options.logger,
        output: { stream: { write: () => true } as unknown as NodeJS.WritableStream, env: {} },
        ...(options.signal ? { signal: options.signal } : {}),
      });
      if (input.tests?.length)
        gate.projects = gate.projects.map((p) => ({ ...p, runner: selectionRunner(p.runner, input.tests!) }));
      options.onProgress?.(`running the tests of ${gate.projects.map((p) => p.name).join(', ')}`);
      return runAnswerOf(await runGate(gate));
    },
    { lock: false, ...(options.onProgress ? { onQueued: options.onProgress } : {}) },
  );
}

/** `suture_report`: an earlier run's report (the latest by default), or a heal session's latest answer. */
export async function reportForAgent(
  raw: unknown,
  options: Pick<AgentCallOptions, 'cwd' | 'configFile'>,
): Promise<ReportAnswer> {
  const input = parseToolInput(ReportInputSchema, raw);
  const loaded = await loadConfig({
    cwd: options.cwd,
    ...(options.configFile ? { file: options.configFile } : {}),
  });
  if (input.session_id) {
    const state = await loadSession(loaded.dir, input.session_id);
    const latest = await latestAnswer(loaded.dir, state);
    return {
      session: {
        session_id: state.id,
        calls: state.calls,
        ...(latest ? { latest } : {}),
        applied: state.applied,
      },
    };
  }
  const runsDir = resolve(loaded.dir, loaded.config.outputDir);
  const runs = (await readdir(runsDir).catch(() => [] as string[])).filter((r) => !r.startsWith('.')).sort();
  const id = input.run_id ?? runs[runs.length - 1];
  if (!id) throw new AgentInputError('run_id', `no earlier run in ${runsDir}; call suture_run first`);
  if (!runs.includes(id))
    throw new AgentInputError(
      'run_id',
      `no run "${id}" in ${runsDir}; the latest: ${runs.slice(-5).join(', ') || 'none'}`,
    );
  const file = join(runsDir, id, 'report.json');
  const text = await readFile(file, 'utf8').catch(() => {
    throw new AgentInputError('run_id', `${file} is missing: that run was made without the json reporter`);
  });
  return { run: runAnswerOf(GateReportSchema.parse(JSON.parse(text))) };
}
