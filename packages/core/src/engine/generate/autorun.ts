import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  AutoRunReportSchema,
  type AutoRunGeneration,
  type AutoRunReport,
  type AutoRunTest,
} from '../../api/contracts/autorun.js';
import { errorMessage } from '../../api/errors.js';
import { repositoryRedactor } from '../../safety/repo-secrets.js';
import { redactDeep } from '../../safety/redact.js';
import { ensureSutureDir, SUTURE_DIR } from '../../safety/suture-dir.js';
import { newRunId } from '../gate.js';
import { AuditLog } from './audit.js';
import { coverageProbeFor } from './measure/index.js';
import { coverageCounts, uncoveredLines } from './measure/model.js';
import type { CoverageData } from './measure/probe.js';
import { evaluate } from './evaluate.js';
import { renderAutoRunMarkdown } from './markdown.js';
import { Rollback } from './rollback.js';
import { inWorkspace, openAutoRunWorkspace } from './sandboxed.js';
import { Snapshot } from './snapshot.js';
import { generate } from './sources.js';
import { catchPluginExits } from '../../safety/process/plugin-exits.js';
import { isCpp, rewire, scratch, type RunState } from './state.js';
import type { AutoRunOptions } from './types.js';

/** Where auto-run folders go by default: apart from the gate's runs, whose reports differ. */
export const autoRunDir = (root: string): string => join(root, SUTURE_DIR, 'generate');

function resolveState(options: AutoRunOptions, runDir: string, audit: AuditLog): RunState {
  const env = options.env ?? process.env;
  const snapshot = new Snapshot(options.project.root, join(runDir, 'snapshot'), audit);
  const rollback = options.rollback ?? 'restoreSnapshot';
  return {
    options,
    settings: {
      maxFixAttempts: options.maxFixAttempts ?? 2,
      flakeRuns: options.flakeRuns ?? 3,
      generations: options.source.kind === 'command' ? 1 : (options.generations ?? 2),
    },
    language: options.project.runner.language,
    runDir,
    cacheDir: join(options.outputDir, 'cache', options.project.name),
    snapshot,
    audit,
    rollback: new Rollback(rollback, options.project.root, snapshot, audit, env),
    probe: options.coverage ?? coverageProbeFor(options.project.runner.language),
    kept: [],
    covered: new Map(),
    env,
  };
}

/**
 * Generates tests for a target (or takes what a user's generator command wrote), runs them at
 * once, heals only the generated files, and keeps a file only when it builds, passes
 * `flakeRuns` runs in a row and raises the target's line or branch coverage; what the target
 * still misses goes to the next generation attempt. Everything the run creates or changes is
 * snapshotted first; removed files go by the rollback strategy, and a run that fails takes
 * everything back. Writes report.json, report.md and audit.jsonl to its run folder.
 */
export async function runAutoRun(options: AutoRunOptions): Promise<AutoRunReport> {
  // A generator's process.exit would end suture with its files still written: it throws where it
  // was called instead, and the run fails and takes everything back.
  return catchPluginExits(
    (exit) => options.logger.error(exit.message),
    () => autoRun(options),
  );
}

async function autoRun(options: AutoRunOptions): Promise<AutoRunReport> {
  const runId = options.runId ?? newRunId();
  const runDir = join(options.outputDir, runId);
  // .suture/ hides itself from git before anything is written into it
  await ensureSutureDir(options.root);
  await mkdir(join(runDir, 'work'), { recursive: true });
  const redact = await repositoryRedactor({
    root: options.root,
    projectRoots: [options.project.root],
    env: options.env ?? process.env,
  });
  const audit = new AuditLog(join(runDir, 'audit.jsonl'), redact);
  const state = resolveState(options, runDir, audit);
  const startedAt = new Date();
  const generations: AutoRunGeneration[] = [];
  const tests: AutoRunTest[] = [];
  let before: CoverageData = new Map();
  let error: string | undefined;
  try {
    await mkdir(state.cacheDir, { recursive: true });
    state.workspace = await openAutoRunWorkspace(options, runDir, state.cacheDir);
    const workDir = await scratch(state, 'coverage');
    before = await inWorkspace(state, 'the coverage run of the existing tests', () =>
      state.probe.measure({
        root: options.project.root,
        target: options.target,
        workDir,
        cacheDir: state.cacheDir,
        timeoutMs: options.project.timeoutMs,
        ...(options.signal ? { signal: options.signal } : {}),
        env: state.env,
        audit,
      }),
    );
    state.covered = before;
    for (let attempt = 1; attempt <= state.settings.generations; attempt++) {
      const uncovered = uncoveredLines(state.covered);
      if (attempt > 1 && uncovered.length === 0) break;
      const feedback =
        attempt > 1
          ? {
              attempt,
              uncovered,
              removed: tests
                .filter((t) => t.verdict !== 'kept')
                .map((t) => ({ file: t.file, verdict: t.verdict, reason: t.reason })),
              kept: state.kept.map((k) => k.file),
            }
          : undefined;
      const generated = await generate(state, attempt, feedback);
      generations.push(generated.generation);
      if (generated.candidates.length === 0) continue;
      if (isCpp(state)) await rewire(state, generated.candidates);
      tests.push(...(await evaluate(state, generated.candidates, attempt)));
    }
    if (state.kept.length === 0)
      await state.rollback.undo(state.snapshot.files(), 'no generated test was kept');
  } catch (caught) {
    error = errorMessage(caught);
    options.logger.error(`the auto-run failed: ${error}; taking back what it wrote`);
    await state.rollback.undo(state.snapshot.files(), 'the auto-run failed').catch((e: unknown) => {
      options.logger.error(`could not take back the generated files: ${errorMessage(e)}`);
    });
    for (const t of tests) if (t.verdict === 'kept') t.verdict = 'rolled-back';
  } finally {
    await state.workspace?.dispose();
  }
  const finishedAt = new Date();
  const usage = generations.map((g) => g.usage).filter((u) => u !== undefined);
  const report = AutoRunReportSchema.parse(
    redactDeep(
      {
        schemaVersion: 1,
        runId,
        project: options.project.name,
        language: state.language,
        target: options.target,
        startedAt: startedAt.toISOString(),
        finishedAt: finishedAt.toISOString(),
        durationMs: finishedAt.getTime() - startedAt.getTime(),
        settings: {
          ...state.settings,
          rollback: state.rollback.tally.strategy,
          coverageTool: state.probe.tool,
        },
        coverage: {
          before: coverageCounts(before),
          after: coverageCounts(error ? before : state.covered),
          uncoveredAfter: uncoveredLines(error ? before : state.covered),
        },
        generations,
        tests,
        rollback: state.rollback.tally,
        totals: {
          generated: tests.length,
          kept: tests.filter((t) => t.verdict === 'kept').length,
          healed: tests.filter((t) => t.attempts.some((a) => a.verdict === 'healed')).length,
          llmCalls: usage.reduce((n, u) => n + u.calls, 0),
          costUsd: usage.reduce((n, u) => n + u.costUsd, 0),
          replayedAnswers: usage.reduce((n, u) => n + (u.replayed?.answers ?? 0), 0),
        },
        audit: audit.entries,
        exitCode: error ? 3 : tests.some((t) => t.verdict === 'kept') ? 0 : 1,
        ...(error ? { error } : {}),
        runDir,
      },
      redact,
    ),
  );
  // the runners' and tools' scratch output holds test output as printed; the report is redacted
  await rm(join(runDir, 'work'), { recursive: true, force: true });
  await writeFile(join(runDir, 'report.json'), `${JSON.stringify(report, null, 2)}\n`);
  await writeFile(join(runDir, 'report.md'), renderAutoRunMarkdown(report));
  return report;
}
