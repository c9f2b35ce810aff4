import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { FailureSchema, type Failure } from '../api/contracts/failure.js';
import type { PluginErrorEntry, Round } from '../api/contracts/report.js';
import { TestResultSchema, type RunResult, type TestResult } from '../api/contracts/run-result.js';
import { errorMessage } from '../api/errors.js';
import type { Logger, ProjectInfo } from '../api/plugin.js';
import type { GateProject } from './types.js';
import type { Emitter } from './events.js';
import { phase } from '../safety/phase.js';
import { redactDeep, type Redactor } from '../safety/redact.js';
import type { TreeWatch } from '../safety/tree-guard/watch.js';
import type { Workspace } from '../safety/workspace/types.js';
import { cancelledRun, wasCancelled } from './cancelled-run.js';
import { CheckedResults } from './checked-results.js';
import { correctStatus } from './run-evidence.js';
import { pluginErrorEntry } from './plugin-errors.js';
import { undoneWarning } from './undone.js';
import { mapPaths } from './view-paths.js';

/** What the analyzer made of a run; `error` when it threw (the failures are then unknown, not none). */
export interface Analysis {
  failures: Failure[];
  error?: PluginErrorEntry;
}

export interface RunOptions {
  /**
   * Called once, as soon as the runner streams the first failing test's result (or, for a runner
   * that streams none, not at all): what follows a failed run can start while the run goes on.
   */
  onFailing?: () => void;
  /** Recorded on the round: why a retry ran (see `RoundPurposeSchema`). */
  purpose?: Round['purpose'];
  /** Where a runner with `supportsRecording` writes what each test ran (`RunContext.record`). */
  record?: string;
}

export interface RoundRunner {
  /** Runs the suite (or a selection) and records the round. */
  run(kind: Round['kind'], selection?: string[], options?: RunOptions): Promise<RunResult>;
  analyze(result: RunResult): Promise<Analysis>;
  /** Every round run so far, in order. */
  readonly rounds: readonly Round[];
  /** The runner and analyzer errors of those rounds (a runner that threw, an analyzer that did). */
  readonly pluginErrors: readonly PluginErrorEntry[];
  info: ProjectInfo;
  /** From now on the runs happen in this workspace's view and sandbox. */
  useWorkspace(workspace: Workspace): void;
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
  /** The gate's redactor, which remembers the strings it has seen. */
  redact?: Redactor,
  /** Watches the user's tree around the runs that happen in it, outside any workspace. */
  treeWatch?: TreeWatch,
): RoundRunner {
  /** Set by useWorkspace: runs happen in its view and sandbox; a copy's paths are mapped back to the project's. */
  let workspace: Workspace | undefined;
  let root = project.root;
  const back = <T>(v: T): T => mapPaths(v, root, project.root);
  const rounds: Round[] = [];
  const pluginErrors: PluginErrorEntry[] = [];
  const info: ProjectInfo = {
    name: project.name,
    root: project.root,
    scopeDepth: project.heal.scopeDepth,
    logger,
  };
  let n = 0;
  const subject = (kind: Round['kind'], selection?: string[]): string =>
    selection ? `the ${kind} run of ${selection.length} test(s)` : `the ${kind} run`;
  const runnerError = (error: unknown, kind: Round['kind'], selection?: string[]): void =>
    void pluginErrors.push(
      pluginErrorEntry(
        {
          plugin: project.runner.name,
          kind: 'runner',
          phase: 'run',
          project: project.name,
          subject: subject(kind, selection),
        },
        error,
      ),
    );
  const analyzerError = (error: unknown): PluginErrorEntry => {
    const last = rounds[rounds.length - 1];
    const entry = pluginErrorEntry(
      {
        plugin: project.analyzer.name,
        kind: 'analyzer',
        phase: 'analyze',
        project: project.name,
        ...(last ? { subject: subject(last.kind) } : {}),
      },
      error,
    );
    pluginErrors.push(entry);
    return entry;
  };
  return {
    rounds,
    pluginErrors,
    info,
    useWorkspace(ws) {
      workspace = ws;
      root = ws.root;
    },
    async run(kind, selection, options = {}) {
      // nothing selected: nothing runs, and the round says so
      if (selection && selection.length === 0) return emptyRound(kind, rounds, emitter, project.name);
      const workDir = join(runDir, 'work', project.name, String(++n));
      await mkdir(workDir, { recursive: true });
      const started = Date.now();
      let result: RunResult;
      phase(`run:${kind}:start`);
      const live = emitter.wants('onTestResult');
      let onFailing = options.onFailing;
      const failing = (): void => {
        const first = onFailing;
        onFailing = undefined;
        first?.();
      };
      // Each result a runner streams is checked as it comes, while the tests still run: a live
      // reporter only gets valid ones, a result the runner returns unchanged at the end is not
      // checked again, and the redaction of the whole result at the round's end (the redactor
      // remembers the strings it has seen) finds the strings done.
      const checked = new CheckedResults();
      const onTestResult = (test: TestResult): void => {
        if (FAILING.has(test.status)) failing();
        const parsed = TestResultSchema.safeParse(back(test));
        if (!parsed.success) return;
        checked.add(parsed.data);
        if (live) void emitter.emit('onTestResult', { project: project.name, test: parsed.data });
        else if (redact) redactDeep(parsed.data, redact);
      };
      try {
        const call = (): ReturnType<typeof project.runner.run> =>
          project.runner.run({
            root,
            ...(selection && project.runner.supportsSelection ? { selection } : {}),
            timeoutMs: project.timeoutMs,
            signal,
            logger,
            workDir,
            ...(options.record && project.runner.supportsRecording ? { record: options.record } : {}),
            onTestResult,
            // a runner's word that a test failed, before it can report which
            ...(onFailing ? { onFailing: failing } : {}),
          });
        const raw = back(
          workspace ? await workspace.run(call) : treeWatch ? await treeWatch.around(call) : await call(),
        );
        const parsed = checked.parse(raw);
        if (parsed.success) result = parsed.data;
        else {
          const issues = parsed.error.issues
            .slice(0, 3)
            .map((i) => `${i.path.join('.')}: ${i.message}`)
            .join('; ');
          runnerError(`returned an invalid RunResult: ${issues}`, kind, selection);
          result = errorResult(`${project.runner.name} returned an invalid RunResult: ${issues}`, started);
        }
      } catch (error) {
        runnerError(error, kind, selection);
        result = errorResult(errorMessage(error), started);
      }
      phase(`run:${kind}:end`);
      const undone = (workspace ? workspace.takeUndone?.() : treeWatch?.take()) ?? [];
      if (undone.length > 0) logger.warn(undoneWarning(`${project.name}: the ${kind} run`, undone));
      const corrected = correctStatus(
        result,
        selection && project.runner.supportsSelection ? selection : undefined,
      );
      if (corrected) {
        logger.warn(
          `${project.runner.name}: ${corrected.reason}; the ${kind} run counts as ${corrected.status}`,
        );
        result = { ...result, status: corrected.status };
      }
      // a cancel stops the tests: the one it cut short is not a timeout to heal
      if (wasCancelled(signal)) result = cancelledRun(result);
      const round: Round = {
        kind,
        ...(options.purpose ? { purpose: options.purpose } : {}),
        status: result.status,
        command: result.command,
        durationMs: result.durationMs,
        tests: result.tests,
        diagnostics: result.diagnostics,
        failures: [],
        ...(result.error ? { error: result.error } : {}),
        ...(corrected ? { statusCorrected: { from: corrected.from, reason: corrected.reason } } : {}),
        ...(undone.length > 0 ? { undone } : {}),
      };
      rounds.push(round);
      await emitter.emit('onRoundEnd', { project: project.name, round });
      return result;
    },
    async analyze(result) {
      if (result.status === 'passed') return { failures: [] };
      let raw;
      try {
        raw = await project.analyzer.analyze(result, info);
      } catch (error) {
        logger.warn(`${project.analyzer.name} could not analyze the run: ${errorMessage(error)}`);
        return { failures: [], error: analyzerError(error) };
      }
      const byFingerprint = new Map<string, Failure>();
      for (const item of raw) {
        const parsed = FailureSchema.safeParse(item);
        if (!parsed.success) {
          const issue = parsed.error.issues[0];
          const detail = `produced an invalid failure: ${issue ? `${issue.path.join('.') || '(root)'}: ${issue.message}` : ''}`;
          logger.warn(`${project.analyzer.name} ${detail}`);
          analyzerError(detail);
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
      return { failures };
    },
  };
}

async function emptyRound(
  kind: Round['kind'],
  rounds: Round[],
  emitter: Emitter,
  project: string,
): Promise<RunResult> {
  const result: RunResult = {
    status: 'passed',
    tests: [],
    diagnostics: [],
    exitCode: 0,
    command: '',
    durationMs: 0,
    outputTail: '',
    selected: true,
  };
  const round: Round = {
    kind,
    status: 'passed',
    command: '',
    durationMs: 0,
    tests: [],
    diagnostics: [],
    failures: [],
  };
  rounds.push(round);
  await emitter.emit('onRoundEnd', { project, round });
  return result;
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
