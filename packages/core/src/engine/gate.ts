import { randomBytes } from 'node:crypto';
import { rm, writeFile } from 'node:fs/promises';
import { isAbsolute, join, relative } from 'node:path';
import type { GateReport, ProjectReport } from '../api/contracts/report.js';
import { ConfigError, errorMessage } from '../api/errors.js';
import type { Logger } from '../api/plugin.js';
import { redactDeep, type Redactor } from '../safety/redact.js';
import { repositoryRedactor } from '../safety/repo-secrets.js';
import { stopRecordedProcessGroups, withProcessGroupRecord } from '../safety/process/process-groups.js';
import { catchPluginExits, type PluginExit } from '../safety/process/plugin-exits.js';
import { hasJournal, Journal } from '../safety/journal.js';
import { journalDir, makeRunDir, processGroupsDir } from '../safety/suture-dir.js';
import { acquireLock, type RepoLock } from '../safety/lock.js';
import { fileDiff } from '../safety/patch.js';
import { phase } from '../safety/phase.js';
import {
  openWorkspace,
  plannedIsolation,
  planIsolation,
  supportFor,
} from '../safety/workspace/open-workspace.js';
import type { IsolationInForce, Workspace } from '../safety/workspace/types.js';
import { Emitter } from './events.js';
import { landHeals, patchOfHeals, withLanded } from './landing.js';
import { containProject } from './containment.js';
import { gateProject } from './project-gate.js';
import { setUpSelection, type GateSelectionSetup } from './select/gate-selection.js';
import { runnerPaths } from './runner-paths.js';
import { RefusalMemory } from './refusals.js';
import { RunSpend } from './spend.js';
import { emptyTotals, sumTotals } from '../report/totals.js';
import { CANCELLED, EXIT_CANCELLED, wasCancelled } from './cancelled-run.js';
import { blocks, finishReport } from '../report/finish-report.js';
import type { GateOptions } from './types.js';
import type { Conflict, Heal } from './writes.js';

/** `suture run` refuses to start while an interrupted run's journal is waiting to be recovered. */
export class UnrecoveredJournalError extends Error {
  override name = 'UnrecoveredJournalError';
  constructor(root: string) {
    super(
      `an interrupted suture run left a journal in ${journalDir(root)}; run \`suture recover\` to restore its files before starting a new run`,
    );
  }
}

/** The first exit a plugin asked for, and how to stop the run it happened in. */
interface ExitLatch {
  exit?: PluginExit;
  stop?: () => void;
}

export function newRunId(now = new Date()): string {
  return `${now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15)}-${randomBytes(2).toString('hex')}`;
}

function redactingLogger(logger: Logger, redact: Redactor): Logger {
  return {
    debug: (m) => logger.debug(redact(m)),
    info: (m) => logger.info(redact(m)),
    warn: (m) => logger.warn(redact(m)),
    error: (m) => logger.error(redact(m)),
  };
}

async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const workers = Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]!);
    }
  });
  await Promise.all(workers);
  return results;
}

/**
 * Runs the gate over every project. Owns the lock, the journal and the run folder; the only
 * writer of project files. Reporters get `onRunEnd` even when the gate fails internally.
 */
export async function runGate(options: GateOptions): Promise<GateReport> {
  const runId = options.runId ?? newRunId();
  for (const p of options.projects) {
    const inside = relative(options.root, p.root);
    if (inside.startsWith('..') || isAbsolute(inside)) {
      throw new ConfigError(
        `project "${p.name}" has root ${p.root}, outside the repository root ${options.root}; move the config file up or the project in`,
      );
    }
  }
  const redact = await repositoryRedactor({
    root: options.root,
    projectRoots: options.projects.map((p) => p.root),
    env: options.env ?? process.env,
    secrets: options.secrets,
  });
  const logger = redactingLogger(options.logger, redact);
  const workspace = options.workspace ?? 'in-place';
  const sandbox = options.sandbox ?? 'off';
  phase('gate:start');
  const lock = await acquireLock(options.root, runId);
  phase('lock:acquired');
  try {
    // Under the lock, a recorded process group can only be a dead run's: its tests still running
    // would share the build folders with this run's.
    await stopRecordedProcessGroups(processGroupsDir(options.root));
    return await withProcessGroupRecord(processGroupsDir(options.root), async () => {
      // A config asking for isolation this machine cannot give is refused before anything starts.
      // The probe's sandbox is recorded like a run's, so a run killed during it leaves nothing
      // running for `suture recover` to miss.
      const planning = supportFor(workspace, sandbox, options.env).then((support) =>
        plannedIsolation(planIsolation(workspace, sandbox, support), support),
      );
      // Only "overlay" and "strict" can be refused; otherwise what the machine supports is only
      // the report's (and a workspace's, which probes again, from the same answer) and the first
      // run need not wait for it.
      if (workspace === 'overlay' || sandbox === 'strict') await planning;
      try {
        // A plugin's process.exit would end suture with the tree unrestored, the lock held and
        // no report: it stops the run instead, which ends as an internal error naming the plugin.
        const exited: ExitLatch = {};
        return await catchPluginExits(
          (exit) => {
            exited.exit = { ...exit, message: `${exit.message}: the run was stopped and the tree restored` };
            logger.error(exited.exit.message);
            exited.stop?.();
          },
          () => gateLocked(options, runId, redact, logger, lock.staleFrom, planning, exited),
        );
      } finally {
        // a probe still running ends while its sandbox is still recorded
        await planning.catch(() => undefined);
      }
    });
  } finally {
    await lock.release();
  }
}

async function gateLocked(
  options: GateOptions,
  runId: string,
  redact: Redactor,
  logger: Logger,
  staleFrom: RepoLock['staleFrom'],
  /** What a run of patched code would get here: the report's isolation when no workspace opened. */
  planned: Promise<IsolationInForce>,
  exited: ExitLatch,
): Promise<GateReport> {
  if (await hasJournal(options.root)) throw new UnrecoveredJournalError(options.root);
  if (staleFrom)
    logger.warn(`took over a stale lock left by pid ${staleFrom.pid} (started ${staleFrom.startedAt})`);
  const startedAt = new Date();
  const runDir = join(options.outputDir, runId);
  const emitter = new Emitter(options.reporters, logger, redact);
  const controller = new AbortController();
  // the caller's signal is the user's cancel; a plugin's exit stops the run as an error
  const onAbort = (): void => controller.abort(CANCELLED);
  options.signal?.addEventListener('abort', onAbort, { once: true });
  if (options.signal?.aborted) controller.abort(CANCELLED);
  exited.stop = (): void => controller.abort();
  if (exited.exit) controller.abort();

  let journal: Journal | undefined;
  const projects: ProjectReport[] = [];
  const conflicts: Conflict[] = [];
  let internalError: string | undefined;
  let patch = '';
  let isolation: IsolationInForce | undefined;
  /** Heals validated in a private view: the user's tree gets them only at the end, in fix mode. */
  let isolated = false;
  let landingConflicts = 0;
  let selected: GateSelectionSetup = {};
  try {
    journal = await Journal.create(options.root, runId);
    await makeRunDir(options.root, runDir);
    await emitter.emit('onRunStart', {
      runId,
      root: options.root,
      runDir,
      mode: options.mode,
      projects: options.projects.map((p) => p.name),
    });
    selected = await setUpSelection(options, runId, logger);
    const heals: Heal[] = [];
    const refusals = new RefusalMemory();
    const spend = new RunSpend(options.budget, startedAt.getTime());
    const outcomes = await mapLimit(options.projects, options.concurrency, (project) =>
      containProject(project, emitter, logger, async () => {
        let opened: Promise<Workspace> | undefined;
        const open = (): Promise<Workspace> =>
          (opened ??= runnerPaths(project, logger)
            .then((paths) =>
              openWorkspace(project.root, {
                workspace: options.workspace ?? 'in-place',
                sandbox: options.sandbox ?? 'off',
                sandboxEnv: options.sandboxEnv ?? [],
                sharedHome: [...(options.sandboxHome ?? []), ...paths],
                cacheLayers: paths,
                // The tested code's HOME: private, empty, gone with the run's scratch.
                home: join(runDir, 'work', project.name, 'home'),
                secretNames: (options.secrets?.names ?? []).map((n) => new RegExp(n, 'i')),
                // The runners write their reports here and suture reads them back.
                writable: [join(runDir, 'work', project.name)],
                repoRoot: options.root,
                journal: journal!,
                undoneDir: join(runDir, 'undone', project.name),
                ...(options.env ? { env: options.env } : {}),
              }),
            )
            .then((ws) => {
              isolation ??= ws.isolation;
              isolated ||= ws.mode !== 'in-place';
              return ws;
            }));
        try {
          return await gateProject(project, {
            repoRoot: options.root,
            runDir,
            mode: options.mode,
            journal: journal!,
            fixers: options.fixers,
            emitter,
            logger,
            signal: controller.signal,
            refusals,
            redact,
            spend,
            openWorkspace: open,
            ...(selected.selection ? { selection: selected.selection } : {}),
            ...(options.secrets ? { secretFiles: options.secrets.files } : {}),
          });
        } finally {
          // a workspace that failed to open failed the project already
          const ws = await opened?.catch(() => undefined);
          await ws?.dispose();
        }
      }),
    ).finally(() => spend.close());
    const projectOf = new Map<Heal, string>();
    for (const o of outcomes) {
      projects.push(o.report);
      heals.push(...o.heals);
      for (const heal of o.heals) projectOf.set(heal, o.report.name);
      conflicts.push(...o.conflicts);
    }
    if (controller.signal.aborted && !wasCancelled(controller.signal))
      internalError = exited.exit?.message ?? 'the run was interrupted';
    if (isolated) {
      // The user's tree was never written: the heals land now, in fix mode, where the user's
      // files still hold the bytes each fixer saw.
      patch = patchOfHeals(heals);
      let landed = new Set<Heal>();
      if (options.mode === 'fix' && !controller.signal.aborted) {
        phase('land:begin');
        const landing = await landHeals(journal, options.root, heals, controller.signal);
        conflicts.push(...landing.conflicts);
        landingConflicts = landing.conflicts.length;
        landed = new Set(landing.landed);
      }
      // An interrupted landing is undone whole.
      if (controller.signal.aborted) {
        conflicts.push(...(await journal.restore()).conflicts);
        landed = new Set();
      }
      projects.splice(0, projects.length, ...withLanded(projects, projectOf, landed));
    } else {
      const kept = new Set(heals.flatMap((h) => h.writes.map((w) => w.file)));
      for (const file of [...kept].sort()) {
        const original = await journal.original(file);
        const current = await journal.read(file);
        patch += fileDiff(file, original?.toString('utf8'), current?.toString('utf8'));
      }
      // Check mode (and an interrupted run) leaves the tree as it found it; fix mode keeps the heals.
      const restoreAll = options.mode !== 'fix' || controller.signal.aborted;
      const toRestore = restoreAll
        ? undefined
        : journal.entries.map((e) => e.file).filter((f) => !kept.has(f));
      const restored = await journal.restore(toRestore);
      conflicts.push(...restored.conflicts);
      // Stopped after a project ended: its heals were undone with the rest.
      if (restoreAll) projects.splice(0, projects.length, ...withLanded(projects, projectOf, new Set()));
    }
    // Conflicting files keep the user's version; either way the journal is done.
    await journal.close();
  } catch (error) {
    internalError = errorMessage(error);
    logger.error(`suture failed: ${internalError}`);
    if (journal) {
      try {
        const restored = await journal.restore();
        conflicts.push(...restored.conflicts);
        await journal.close();
      } catch (restoreError) {
        logger.error(`could not restore the tree: ${errorMessage(restoreError)}; run \`suture recover\``);
      }
    }
  } finally {
    options.signal?.removeEventListener('abort', onAbort);
  }

  const finishedAt = new Date();
  const totals = projects.length > 0 ? sumTotals(projects) : emptyTotals();
  const cancelled = wasCancelled(controller.signal);
  const green = landingConflicts === 0 && !projects.some((p) => blocks(p, options.mode));
  const built: GateReport = redactDeep(
    {
      schemaVersion: 2,
      runId,
      root: options.root,
      startedAt: startedAt.toISOString(),
      finishedAt: finishedAt.toISOString(),
      durationMs: finishedAt.getTime() - startedAt.getTime(),
      mode: options.mode,
      projects,
      totals,
      patch,
      conflicts,
      ...(selected.base ? { selection: selected.base } : {}),
      isolation: isolation ?? (await planned),
      exitCode: internalError ? 3 : cancelled ? EXIT_CANCELLED : green ? 0 : 1,
      ...(cancelled ? { cancelled } : {}),
      runDir,
      ...(internalError ? { error: internalError } : {}),
      pluginErrors: emitter.pluginErrors,
    } as GateReport,
    redact,
  );
  const report = finishReport(built, { blocking: options.blocking !== false });
  try {
    // The runners' scratch files (raw reports, captured output) hold test output as printed,
    // secrets included; what the run found is in the redacted report.
    await rm(join(runDir, 'work'), { recursive: true, force: true });
    await makeRunDir(options.root, runDir);
    await writeFile(join(runDir, 'fixes.patch'), report.patch);
  } catch (error) {
    logger.warn(`could not write ${runDir}: ${errorMessage(error)}`);
  }
  const ended = await emitter.end(report, { runDir, root: options.root });
  phase('gate:end');
  // an exit asked for in onRunEnd, once the report was built
  if (exited.exit && !ended.error) return { ...ended, exitCode: 3, error: exited.exit.message };
  return ended;
}
