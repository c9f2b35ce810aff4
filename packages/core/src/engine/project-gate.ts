import type { Failure } from '../api/contracts/failure.js';
import type { PluginErrorEntry, ProjectReport } from '../api/contracts/report.js';
import type { RunResult } from '../api/contracts/run-result.js';
import type { Fixer, GateMode, Logger } from '../api/plugin.js';
import type { Journal } from '../safety/journal.js';
import type { Redactor } from '../safety/redact.js';
import type { Workspace } from '../safety/workspace/types.js';
import type { Emitter } from './events.js';
import { finalState, STILL_FAILING, type FinalState } from './final-state.js';
import { healGroups, type HealPass } from './heal-groups.js';
import type { HealContext } from './heal-loop.js';
import { mergePluginErrors } from './plugin-errors.js';
import type { RefusalMemory } from './refusals.js';
import type { RunSpend } from './spend.js';
import { regression, type RegressionResult } from './regression.js';
import { createRoundRunner, failingIds, type Analysis } from './rounds.js';
import { settle } from './settle.js';
import { projectStatus, projectTotals } from '../report/totals.js';
import { treeRoundsWatch } from './tree-rounds.js';
import { triageFlaky } from './triage.js';
import type { GateProject } from './types.js';
import { prepareSelection, type GateSelection } from './select/project-selection.js';
import { workspaceTree, workspaceView } from './workspace-tree.js';
import { repoPath, type Conflict, type Heal } from './writes.js';
import { wasCancelled } from './cancelled-run.js';

export interface ProjectGateContext {
  repoRoot: string;
  runDir: string;
  mode: GateMode;
  journal: Journal;
  fixers: readonly Fixer[];
  emitter: Emitter;
  logger: Logger;
  signal: AbortSignal;
  refusals: RefusalMemory;
  redact?: Redactor;
  spend?: RunSpend;
  secretFiles?: readonly string[];
  /**
   * Opens the project's workspace: the runs of patched code happen there, and heals go to its
   * view unless it is in place. Called only when the initial run failed and the mode heals;
   * without it everything runs in the tree.
   */
  openWorkspace?: () => Promise<Workspace>;
  /** Test selection by change and recording, when the run asks for either. */
  selection?: GateSelection;
}

export interface ProjectOutcome {
  report: ProjectReport;
  /** Heals that stay (validated and not reverted by the regression run). */
  heals: Heal[];
  /** Files the user changed while suture undid a patch of this project. */
  conflicts: Conflict[];
}

/** Why a project could not be gated at all, from its initial run and what the analyzer made of it. */
function projectError(
  project: GateProject,
  initial: RunResult,
  analysis: Analysis,
  /** Why the engine failed a run its runner called passed. */
  corrected?: string,
): string | undefined {
  const { failures } = analysis;
  if (failures.length > 0) return undefined;
  if (initial.status === 'error') return initial.error ?? 'the runner could not run the tests';
  if (initial.status === 'timeout')
    return initial.error ?? `the run exceeded its time limit of ${project.timeoutMs} ms`;
  const failing = failingIds(initial).size;
  if (analysis.error && initial.status !== 'passed')
    return `${analysis.error.plugin} failed in analyze, so ${failing} failing test(s) went unexplained: ${analysis.error.message}`;
  if (initial.status !== 'passed' && failing > 0)
    return `${project.analyzer.name} found no failure to explain ${failing} failing test(s)`;
  // A run the runner calls failed, with no failing test to show for it (a report cut short, a
  // crash after the last result), is not green.
  if (initial.status === 'failed' && corrected) return `${project.runner.name}: ${corrected}`;
  if (initial.status === 'failed')
    return `${project.runner.name} reported a failed run (exit code ${initial.exitCode ?? 'none'}) but no failing test; see the output of ${initial.command || 'the run'}`;
  return undefined;
}

function joinPasses(a: HealPass, b: HealPass): HealPass {
  return {
    reports: [...a.reports, ...b.reports],
    heals: [...a.heals, ...b.heals],
    healedBy: new Map([...a.healedBy, ...b.healedBy]),
    conflicts: [...a.conflicts, ...b.conflicts],
    pluginErrors: [...a.pluginErrors, ...b.pluginErrors],
  };
}

/** Heal (by its failure id) -> the tests it made pass, its own failure's and those healed along with it. */
function healedTests(pass: HealPass): Map<string, string[]> {
  const tests = new Map<string, string[]>();
  for (const r of pass.reports) {
    if (r.outcome !== 'healed') continue;
    const by = pass.healedBy.get(r.failure.id) ?? r.failure.id;
    tests.set(by, [...(tests.get(by) ?? []), ...r.failure.tests]);
  }
  return tests;
}

/** Gates one project: initial run, analysis, triage, healing, regression, and the final state. */
export async function gateProject(project: GateProject, ctx: ProjectGateContext): Promise<ProjectOutcome> {
  const started = Date.now();
  await ctx.emitter.emit('onProjectStart', { project: project.name, runner: project.runner.name });
  const watch = await treeRoundsWatch({
    repoRoot: ctx.repoRoot,
    projectRoot: project.root,
    runDir: ctx.runDir,
    projectName: project.name,
    mode: ctx.mode,
    journal: ctx.journal,
  });
  const rounds = createRoundRunner(
    project,
    ctx.runDir,
    ctx.emitter,
    ctx.logger,
    ctx.signal,
    ctx.redact,
    watch,
  );
  const noHeal = ctx.mode === 'no-heal';

  // The initial run and the flaky re-runs of its failures run the user's own code as their runner
  // would, in their tree and environment. What may run patched code happens in the workspace,
  // opened meanwhile, and only when something is to be healed.
  // It starts opening at the first failing result the runner streams, so the opening overlaps the
  // rest of the run, or else when the run has failed.
  let opening: Promise<Workspace> | undefined;
  const open = (): void => {
    if (opening || ctx.signal.aborted || !ctx.openWorkspace) return;
    opening = ctx.openWorkspace();
    // a failure to open is the project's, reported when the workspace is first needed
    opening.catch(() => undefined);
  };
  const chosen = ctx.selection
    ? await prepareSelection(project, ctx.selection, ctx.repoRoot, ctx.runDir, ctx.logger)
    : undefined;
  const initial = await rounds.run('initial', chosen?.selection, {
    ...(noHeal ? {} : { onFailing: open }),
    ...(chosen?.recordFile ? { record: chosen.recordFile } : {}),
  });
  const selection = await chosen?.finish(initial);
  if (!noHeal && initial.status !== 'passed') open();
  const heal: HealContext = {
    project,
    repoRoot: ctx.repoRoot,
    journal: ctx.journal,
    fixers: ctx.fixers,
    rounds,
    emitter: ctx.emitter,
    logger: ctx.logger,
    signal: ctx.signal,
    refusals: ctx.refusals,
    ...(ctx.redact ? { redact: ctx.redact } : {}),
    ...(ctx.spend ? { spend: ctx.spend } : {}),
    ...(ctx.secretFiles ? { secretFiles: ctx.secretFiles } : {}),
  };
  const workspaceOpening = opening;
  if (workspaceOpening) {
    let ready: Promise<void> | undefined;
    heal.ready = () =>
      (ready ??= workspaceOpening.then((workspace) => {
        rounds.useWorkspace(workspace);
        // In a private view the heals never reach the user's tree while they are validated.
        if (workspace.mode === 'in-place') return;
        heal.journal = workspaceTree(workspace, ctx.repoRoot, project.root);
        heal.view = workspaceView(workspace);
        heal.workspace = workspace;
      }));
  }

  const analysis = await rounds.analyze(initial);
  const error = projectError(project, initial, analysis, rounds.rounds[0]?.statusCorrected?.reason);
  const failures = analysis.failures;
  const flaky = error ? new Set<string>() : await triageFlaky(failures, project, rounds);
  let pass = await healGroups(heal, { failures, flaky, earlier: [], noHeal });

  // A healed build or collection failure stopped tests from running: run the suite again and take
  // on the failures it had hidden (at most twice, so a chain of new breakage cannot loop).
  const seen = new Set(failures.map((f) => f.fingerprint));
  const followed = new Set<string>();
  for (let round = 0; round < 2 && !ctx.signal.aborted && !noHeal; round++) {
    const unblocking = pass.reports.filter(
      (r) =>
        r.outcome === 'healed' &&
        (r.failure.blocksAll || r.failure.tests.length === 0) &&
        !followed.has(r.failure.id),
    );
    if (unblocking.length === 0) break;
    for (const r of pass.reports) if (r.outcome === 'healed') followed.add(r.failure.id);
    const again = await rounds.run('retry');
    const hidden = (await rounds.analyze(again)).failures.filter((f) => !seen.has(f.fingerprint));
    if (hidden.length === 0) break;
    for (const f of hidden) seen.add(f.fingerprint);
    const more = await triageFlaky(hidden, project, rounds);
    pass = joinPasses(
      pass,
      await healGroups(heal, { failures: hidden, flaky: more, earlier: pass.heals, noHeal }),
    );
  }

  let after: RegressionResult | undefined;
  if (pass.heals.length > 0 && project.heal.regression && !ctx.signal.aborted)
    after = await regression(rounds, heal.journal, initial, pass.heals, healedTests(pass));
  const kept = after?.kept ?? pass.heals;
  const reverts = after?.reverts ?? [];

  // Another group's heal may have made a failure tried earlier pass: before anything is reported
  // as still failing, its tests are checked on the tree the run leaves.
  let final: FinalState | undefined;
  if (pass.heals.length > 0 && !ctx.signal.aborted) {
    const reverted = new Set(reverts.map((v) => v.heal.failureId));
    const toCheck: Failure[] = pass.reports
      .filter(
        (r) =>
          STILL_FAILING.has(r.outcome) ||
          reverted.has(r.failure.id) ||
          reverted.has(pass.healedBy.get(r.failure.id) ?? ''),
      )
      .map((r) => r.failure);
    final = await finalState(project, rounds, toCheck, after?.final);
  }
  // `healed` alone says the heal was validated; a reporter also needs to know whether the tree
  // holds it (fix mode) or was left failing with the heal only offered in the patch (check mode).
  const applied = ctx.mode === 'fix' && !ctx.signal.aborted;
  const reports = settle({
    reports: pass.reports,
    kept,
    reverts,
    healedBy: pass.healedBy,
    ...(final ? { final } : {}),
    repoPath: (file) => repoPath(ctx.repoRoot, project.root, file),
  }).map((r) => (r.outcome === 'healed' ? { ...r, applied } : r));

  const pluginErrors: PluginErrorEntry[] = mergePluginErrors([...rounds.pluginErrors, ...pass.pluginErrors]);
  // Check mode leaves the tree as it was: its tests stand as the initial run found them.
  const finalRound =
    ctx.mode === 'check'
      ? rounds.rounds.find((r) => r.kind === 'initial')
      : [...rounds.rounds].reverse().find((r) => r.kind === 'initial' || r.kind === 'regression');
  const report: ProjectReport = {
    name: project.name,
    root: project.root,
    runner: project.runner.name,
    status: wasCancelled(ctx.signal) ? 'cancelled' : projectStatus(reports, error),
    rounds: [...rounds.rounds],
    failures: reports,
    totals: projectTotals(finalRound, reports),
    durationMs: Date.now() - started,
    ...(error ? { error } : {}),
    pluginErrors,
    ...(selection ? { selection } : {}),
  };
  await ctx.emitter.emit('onProjectEnd', { project: report });
  return { report, heals: kept, conflicts: [...pass.conflicts, ...(after?.conflicts ?? [])] };
}
