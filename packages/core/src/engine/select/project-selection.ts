import { mkdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import {
  RecordingSchema,
  SelectionRulesSchema,
  type ProjectSelection,
  type SelectionRules,
} from '../../api/contracts/selection.js';
import type { RunResult } from '../../api/contracts/run-result.js';
import { errorMessage } from '../../api/errors.js';
import type { Logger } from '../../api/plugin.js';
import { sha256 } from '../../safety/atomic.js';
import type { GateProject } from '../types.js';
import { changedSince, fileAt, hasCommit } from './git-changes.js';
import { planSelection, type Plan } from './plan.js';
import { buildRecord } from './record.js';
import { readBlob, readRecords, writeRecord } from './store.js';

/** What the gate knows of the change, once for every project. */
export interface GateSelection {
  /** `changed`: run what the change can reach; `all`: the whole suite (recording still possible). */
  mode: 'changed' | 'all';
  /** Green runs add to the selection record (`auto`: when the project ran whole for want of one). */
  record: boolean | 'auto';
  /** The base commit and the files that differ from it; `error` when git could not say. */
  base?: { commit: string; changed: string[] } | { error: string };
  /** The commit HEAD names and the files that differ from it, for a record to say what it saw. */
  tree?: { commit: string; dirty: Record<string, string> };
  /** Absolute roots of every project of the config. */
  projectRoots: readonly string[];
  runId: string;
}

export interface PreparedSelection {
  /** Tests (and test files) for the initial run; undefined runs the whole suite. */
  selection?: string[];
  /** Where the runner writes its recording, when this run records. */
  recordFile?: string;
  /** Says how the tests were chosen and records a green run. */
  finish(initial: RunResult): Promise<ProjectSelection | undefined>;
}

async function rulesOf(project: GateProject, logger: Logger): Promise<SelectionRules | string> {
  if (!project.runner.selectionRules || !project.runner.supportsRecording)
    return `${project.runner.name} records no per-test coverage`;
  try {
    const parsed = SelectionRulesSchema.safeParse(await project.runner.selectionRules(project.root));
    if (parsed.success) return parsed.data;
    return `${project.runner.name} gave invalid selection rules: ${parsed.error.issues[0]?.message ?? ''}`;
  } catch (error) {
    logger.warn(errorMessage(error));
    return `${project.runner.name} could not give its selection rules: ${errorMessage(error)}`;
  }
}

/**
 * The files that differ from the base and from every tree the record saw (a file that was dirty
 * then counts when it holds other bytes now); a string when one cannot be known.
 */
async function changedFiles(
  repoRoot: string,
  base: { commit: string; changed: string[] },
  trees: ReadonlyArray<{ commit: string; dirty: Record<string, string> }>,
): Promise<string[] | string> {
  const all = new Set(base.changed);
  const held = async (file: string): Promise<string> => {
    const bytes = await readFile(join(repoRoot, file)).catch(() => undefined);
    return bytes ? sha256(bytes) : '';
  };
  for (const tree of trees) {
    if (tree.commit !== base.commit && !(await hasCommit(repoRoot, tree.commit)))
      return `the record was made on commit ${tree.commit.slice(0, 12)}, which this clone does not have (fetch more history)`;
    const since = tree.commit === base.commit ? base.changed : await changedSince(repoRoot, tree.commit);
    for (const f of since) if (tree.dirty[f] === undefined || tree.dirty[f] !== (await held(f))) all.add(f);
    // dirty then, clean now: it holds the commit's bytes again, which the record did not see
    for (const f of Object.keys(tree.dirty)) if (!since.includes(f)) all.add(f);
  }
  return [...all].sort();
}

/**
 * Chooses a project's tests for the initial run under `--changed`, and sets up recording: the
 * language-neutral part of selection by change, driven by what the runner knows
 * (`Runner.selectionRules`, `Runner.supportsRecording`).
 */
export async function prepareSelection(
  project: GateProject,
  gate: GateSelection,
  repoRoot: string,
  runDir: string,
  logger: Logger,
): Promise<PreparedSelection> {
  const rules = await rulesOf(project, logger);

  let plan: Plan | undefined;
  if (gate.mode === 'changed') {
    const { record, unreadable } = await readRecords(repoRoot, project.name);
    for (const u of unreadable) logger.warn(`${project.name}: selection record left out: ${u}`);
    const fallback = (why: string): Plan => ({ basis: 'all', fallback: why, reasons: [] });
    if (!gate.base) plan = fallback('no change base');
    else if ('error' in gate.base) plan = fallback(`the change could not be read: ${gate.base.error}`);
    else if (typeof rules === 'string') plan = fallback(rules);
    else if (!record && rules.unavailable)
      plan = fallback(`no selection record for this project, and none can be made: ${rules.unavailable}`);
    else if (!project.runner.supportsSelection)
      plan = fallback(`${project.runner.name} cannot run a selection of tests`);
    else {
      const changed = await changedFiles(repoRoot, gate.base, record?.trees ?? []);
      if (typeof changed === 'string') plan = fallback(changed);
      else
        plan = await planSelection({
          repoRoot,
          projectRoot: project.root,
          otherRoots: gate.projectRoots.filter((r) => r !== project.root),
          record,
          rules,
          changed,
          baseChanged: new Set(gate.base.changed),
          base: (file) => fileAt(repoRoot, (gate.base as { commit: string }).commit, file),
          fileSelection: project.runner.supportsFileSelection === true,
          current: async (file) => {
            const bytes = await readFile(join(repoRoot, file)).catch(() => undefined);
            return bytes ? { sha256: sha256(bytes), text: bytes.toString('utf8') } : undefined;
          },
          blob: (hash) => readBlob(repoRoot, project.name, hash),
        });
    }
    if (plan.basis === 'all') logger.info(`${project.name}: running every test: ${plan.fallback}`);
  }
  const selection = plan?.basis === 'record' ? plan.selection : undefined;
  const wanted = gate.record === true || (gate.record === 'auto' && plan?.basis === 'all');
  const canRecord = typeof rules !== 'string' && !rules.unavailable;
  const recordFile = wanted && canRecord ? join(runDir, 'work', project.name, 'recording.json') : undefined;
  if (recordFile) await mkdir(dirname(recordFile), { recursive: true });
  const notRecorded = !wanted
    ? undefined
    : typeof rules === 'string'
      ? rules
      : (rules.unavailable ?? undefined);

  return {
    ...(selection ? { selection } : {}),
    ...(recordFile ? { recordFile } : {}),
    async finish(initial) {
      let recorded: true | string | undefined = notRecorded;
      if (recordFile && typeof rules !== 'string')
        recorded = selection?.length === 0 ? 'no test was selected' : await keep(initial);
      if (!plan)
        return recorded === undefined
          ? undefined
          : {
              basis: 'all',
              selected: initial.tests.length,
              total: initial.tests.length,
              reasons: [],
              recorded,
            };
      const ids = new Set(initial.tests.map((t) => t.id));
      const known = plan.basis === 'record' ? plan.known : 0;
      return {
        basis: plan.basis,
        selected: ids.size,
        total: Math.max(known, ids.size),
        ...(plan.basis === 'all' ? { fallback: plan.fallback } : {}),
        reasons: plan.reasons,
        ...(recorded !== undefined ? { recorded } : {}),
      };
    },
  };

  async function keep(initial: RunResult): Promise<true | string> {
    if (typeof rules === 'string') return rules;
    let raw: unknown;
    try {
      raw = JSON.parse(await readFile(recordFile!, 'utf8'));
    } catch {
      return initial.status === 'passed'
        ? `${project.runner.name} wrote no recording`
        : `the run ${initial.status}: only a green run records`;
    }
    const recording = RecordingSchema.safeParse(raw);
    if (!recording.success)
      return `${project.runner.name} wrote an invalid recording: ${recording.error.issues[0]?.message ?? ''}`;
    const built = await buildRecord({
      repoRoot,
      projectRoot: project.root,
      project: project.name,
      runner: project.runner.name,
      toolchain: rules.toolchain,
      recording: recording.data,
      result: initial,
      ...(gate.tree ? { tree: gate.tree } : {}),
      recordedAt: new Date().toISOString(),
    });
    if ('refused' in built) {
      logger.info(`${project.name}: not recorded: ${built.refused}`);
      return built.refused;
    }
    try {
      await writeRecord(repoRoot, built.record, built.blobs, gate.runId);
    } catch (error) {
      return `the record could not be stored: ${errorMessage(error)}`;
    }
    return true;
  }
}
