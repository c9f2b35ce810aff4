import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { FailureSchema, type Failure } from '../api/contracts/failure.js';
import type { Round } from '../api/contracts/report.js';
import { RunResultSchema, type RunResult } from '../api/contracts/run-result.js';
import { errorMessage } from '../api/errors.js';
import type { Logger, ProjectInfo } from '../api/plugin.js';
import type { GateProject } from './types.js';
import type { Emitter } from './events.js';
import { phase } from '../safety/phase.js';

export interface RoundRunner {
  /** Runs the suite (or a selection) and records the round. */
  run(kind: Round['kind'], selection?: string[]): Promise<RunResult>;
  analyze(result: RunResult): Promise<Failure[]>;
  rounds: Round[];
  info: ProjectInfo;
}

const FAILING = new Set(['failed', 'error', 'timeout', 'crashed']);

export function failingIds(result: RunResult): Set<string> {
  return new Set(result.tests.filter((t) => FAILING.has(t.status)).map((t) => t.id));
}

/** The failure's tests when the runner can re-run just them, or undefined (only the whole suite shows it). */
export function selectionOf(project: GateProject, failure: Failure): string[] | undefined {
  return project.runner.supportsSelection && !failure.blocksAll && failure.tests.length > 0
    ? failure.tests
    : undefined;
}

export function createRoundRunner(
  project: GateProject,
  runDir: string,
  emitter: Emitter,
  logger: Logger,
  signal: AbortSignal,
): RoundRunner {
  const rounds: Round[] = [];
  const info: ProjectInfo = {
    name: project.name,
    root: project.root,
    scopeDepth: project.heal.scopeDepth,
    logger,
  };
  let n = 0;
  return {
    rounds,
    info,
    async run(kind, selection) {
      const workDir = join(runDir, 'work', project.name, String(++n));
      await mkdir(workDir, { recursive: true });
      const started = Date.now();
      let result: RunResult;
      phase(`run:${kind}:start`);
      try {
        const raw = await project.runner.run({
          root: project.root,
          ...(selection && project.runner.supportsSelection ? { selection } : {}),
          timeoutMs: project.timeoutMs,
          signal,
          logger,
          workDir,
          onTestResult: (test) => void emitter.emit('onTestResult', { project: project.name, test }),
        });
        const parsed = RunResultSchema.safeParse(raw);
        result = parsed.success
          ? parsed.data
          : errorResult(
              `${project.runner.name} returned an invalid RunResult: ${parsed.error.issues
                .slice(0, 3)
                .map((i) => `${i.path.join('.')}: ${i.message}`)
                .join('; ')}`,
              started,
            );
      } catch (error) {
        result = errorResult(errorMessage(error), started);
      }
      phase(`run:${kind}:end`);
      const round: Round = {
        kind,
        status: result.status,
        command: result.command,
        durationMs: result.durationMs,
        tests: result.tests,
        diagnostics: result.diagnostics,
        failures: [],
        ...(result.error ? { error: result.error } : {}),
      };
      rounds.push(round);
      await emitter.emit('onRoundEnd', { project: project.name, round });
      return result;
    },
    async analyze(result) {
      if (result.status === 'passed') return [];
      let raw;
      try {
        raw = await project.analyzer.analyze(result, info);
      } catch (error) {
        logger.warn(`${project.analyzer.name} could not analyze the run: ${errorMessage(error)}`);
        return [];
      }
      const byFingerprint = new Map<string, Failure>();
      for (const item of raw) {
        const parsed = FailureSchema.safeParse(item);
        if (!parsed.success) {
          logger.warn(
            `${project.analyzer.name} produced an invalid failure: ${parsed.error.issues[0]?.message ?? ''}`,
          );
          continue;
        }
        const f = { ...parsed.data, id: `${project.name}:${parsed.data.fingerprint}` };
        const existing = byFingerprint.get(f.fingerprint);
        if (existing) {
          for (const t of f.tests) if (!existing.tests.includes(t)) existing.tests.push(t);
        } else byFingerprint.set(f.fingerprint, f);
      }
      const failures = [...byFingerprint.values()];
      const last = rounds[rounds.length - 1];
      if (last) last.failures = failures.map((f) => f.id);
      return failures;
    },
  };
}

function errorResult(message: string, started: number): RunResult {
  return {
    status: 'error',
    tests: [],
    diagnostics: [],
    exitCode: null,
    command: '',
    durationMs: Date.now() - started,
    outputTail: '',
    error: message,
    selected: false,
  };
}
