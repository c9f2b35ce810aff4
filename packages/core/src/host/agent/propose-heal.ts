import { mkdir, rm } from 'node:fs/promises';
import { join, relative } from 'node:path';
import type { AttemptSummary } from '../../api/contracts/fix.js';
import {
  HealAnswerSchema,
  HealInputSchema,
  type HealAnswer,
  type HealInput,
} from '../../api/contracts/heal.js';
import type { Attempt, GateReport } from '../../api/contracts/report.js';
import { errorMessage } from '../../api/errors.js';
import type { Fixer, Logger } from '../../api/plugin.js';
import { createGateOptions } from '../gate-options.js';
import { loadConfig } from '../load-config.js';
import { SUTURE_DIR } from '../../safety/suture-dir.js';
import { newRunId, runGate } from '../../engine/gate.js';
import type { GateOptions } from '../../engine/types.js';
import { validationOutcome } from '../../engine/validate-run.js';
import { composeAnswer } from './answer.js';
import { attemptPatch, keptPatch, type Candidate } from './candidates.js';
import { collect } from './collect.js';
import { copyTree } from './copy-tree.js';
import { checkAllowedPaths, checkSelection, parseToolInput } from './input.js';
import { withRepository } from './repo-queue.js';
import { allowedPathsAnalyzer, selectionRunner, sessionFixer } from './session-plugins.js';
import {
  createSession,
  loadSession,
  saveCall,
  saveSession,
  type SessionAttempt,
  type SessionState,
} from './session-store.js';

export interface AgentCallOptions {
  /** Where the config is looked for (walking up), unless `configFile` names it. */
  cwd: string;
  configFile?: string;
  logger: Logger;
  /** Aborted when the caller goes away: the gate stops, the copy is removed, nothing is written. */
  signal?: AbortSignal;
  /** Where the call is, in a line: for MCP progress notifications and the CLI's stderr. */
  onProgress?: (message: string) => void;
  /**
   * The fixers of each session kept between calls by a long-lived caller (the MCP server), so an
   * LLM fixer's conversation on a failure continues in the next call of the session.
   */
  fixerMemory?: Map<string, Fixer[]>;
}

/** The private copies of heals in progress; only the lock holder uses it, so it is swept on entry. */
export function healScratch(root: string): string {
  return join(root, SUTURE_DIR, 'heal');
}

function summaryOf(a: Attempt): AttemptSummary {
  return {
    attempt: a.attempt,
    fixer: a.fixer,
    verdict: a.verdict,
    ...(a.rationale ? { rationale: a.rationale } : {}),
    ...(a.diff ? { diff: a.diff } : {}),
    outcome:
      a.verdict === 'healed'
        ? 'healed'
        : a.validation && !a.validation.passed
          ? validationOutcome(a.validation)
          : (a.reason ?? a.verdict),
  };
}

function sessionAttempts(report: GateReport, call: number): SessionAttempt[] {
  return report.projects.flatMap((p) =>
    p.failures.flatMap((f) =>
      f.attempts
        .filter((a) => a.verdict !== 'repeated-request')
        .map((a) => ({
          call,
          fingerprint: f.failure.fingerprint,
          tests: f.failure.tests,
          summary: summaryOf(a),
        })),
    ),
  );
}

/** The gate options aimed at the copy: same plugins, project roots moved, the caller's limits on top. */
function retarget(
  options: GateOptions,
  root: string,
  copyRoot: string,
  input: HealInput,
  state: SessionState,
): GateOptions {
  return {
    ...options,
    root: copyRoot,
    outputDir: join(copyRoot, SUTURE_DIR, 'runs'),
    projects: options.projects.map((p) => {
      const projectRoot = join(copyRoot, relative(root, p.root));
      return {
        ...p,
        root: projectRoot,
        runner: input.tests?.length ? selectionRunner(p.runner, input.tests) : p.runner,
        analyzer: input.allowed_paths?.length
          ? allowedPathsAnalyzer(p.analyzer, copyRoot, projectRoot, input.allowed_paths)
          : p.analyzer,
      };
    }),
    fixers: options.fixers.map((f) => sessionFixer(f, state.attempts, input.change_description)),
  };
}

/**
 * The propose-only heal: the gate runs in fix mode on a private copy of the repository (under
 * `.suture/heal/`), with the session's earlier attempts given to the fixers, and the answer says
 * fixed, candidates or unfixable. The caller's files are never written; the patches and the
 * bytes they leave are kept in the session for `applyProposedPatch`.
 */
export async function proposeHeal(raw: unknown, options: AgentCallOptions): Promise<HealAnswer> {
  const input = parseToolInput(HealInputSchema, raw);
  const started = Date.now();
  const progress = options.onProgress ?? ((): void => undefined);
  const loaded = await loadConfig({
    cwd: options.cwd,
    ...(options.configFile ? { file: options.configFile } : {}),
  });
  const root = loaded.dir;
  checkAllowedPaths(input.allowed_paths ?? [], root);
  const projects = checkSelection(loaded.config, loaded.display, input.projects, input.tests);
  // An unknown session is refused before anything waits; a new one is made only under the lock,
  // so a call refused as busy leaves nothing behind.
  if (input.session_id) await loadSession(root, input.session_id);
  return withRepository(
    root,
    `heal-${input.session_id ?? 'new'}`,
    async () => {
      // Read under the lock: a queued call of the same session sees the calls before it.
      const state = input.session_id ? await loadSession(root, input.session_id) : await createSession(root);
      const call = state.calls + 1;
      state.calls = call;
      state.running = { call, pid: process.pid, startedAt: new Date().toISOString() };
      await saveSession(root, state);
      await saveCall(root, state.id, call, { request: input });
      const scratch = healScratch(root);
      await rm(scratch, { recursive: true, force: true });
      const copyRoot = join(scratch, state.id, 'tree');
      try {
        const base = await createGateOptions(loaded, {
          mode: 'fix',
          ...(projects ? { projects } : {}),
          ...(input.fixers?.length ? { fixers: input.fixers } : {}),
          ...(input.max_attempts ? { maxAttempts: input.max_attempts } : {}),
          reporters: ['json'],
          logger: options.logger,
          output: { stream: { write: () => true } as unknown as NodeJS.WritableStream, env: {} },
          ...(options.signal ? { signal: options.signal } : {}),
        });
        const memoryKey = `${state.id}\u0000${base.fixers.map((f) => f.name).join(',')}`;
        const remembered = options.fixerMemory?.get(memoryKey);
        if (remembered && remembered.length === base.fixers.length) base.fixers = remembered;
        else options.fixerMemory?.set(memoryKey, base.fixers);
        const ladders = input.strategy === 'each-fixer' ? base.fixers.map((f) => [f]) : [base.fixers];
        const reports: GateReport[] = [];
        const candidates: Candidate[] = [];
        const attempts: SessionAttempt[] = [];
        for (const [i, fixers] of ladders.entries()) {
          if (options.signal?.aborted) break;
          await rm(copyRoot, { recursive: true, force: true });
          await mkdir(copyRoot, { recursive: true });
          progress(`copying the repository for gate ${i + 1} of ${ladders.length}`);
          const copy = await copyTree(root, copyRoot);
          const gate = retarget({ ...base, fixers }, root, copyRoot, input, state);
          const collector = collect(copyRoot, new Map(gate.projects.map((p) => [p.name, p.root])), progress);
          const report = await runGate({
            ...gate,
            runId: newRunId(),
            reporters: [...gate.reporters, collector.reporter],
          });
          if (options.signal?.aborted) break;
          if (report.error) throw new Error(`the heal's gate failed: ${report.error}`);
          reports.push(report);
          attempts.push(...sessionAttempts(report, call));
          const kept = await keptPatch(report, copyRoot, copy);
          if (kept) candidates.push(kept);
          for (const a of collector.attempts) {
            const c = await attemptPatch(a, root, copy);
            if (c) candidates.push(c);
          }
        }
        if (options.signal?.aborted || reports.length === 0)
          throw new Error('the heal was interrupted before it finished; nothing was written');
        const composed = composeAnswer({
          sessionId: state.id,
          call,
          reports,
          candidates,
          durationMs: Date.now() - started,
        });
        const answer = HealAnswerSchema.parse(composed.answer);
        state.attempts.push(...attempts);
        Object.assign(state.patches, composed.writes);
        delete state.running;
        delete state.interrupted;
        await saveSession(root, state);
        await saveCall(root, state.id, call, { request: input, answer });
        return answer;
      } catch (error) {
        delete state.running;
        state.interrupted = { call, reason: errorMessage(error) };
        await saveSession(root, state).catch(() => undefined);
        await saveCall(root, state.id, call, { request: input, error: errorMessage(error) }).catch(
          () => undefined,
        );
        throw error;
      } finally {
        await rm(scratch, { recursive: true, force: true });
      }
    },
    {
      onQueued: progress,
      ...(options.signal ? { signal: options.signal } : {}),
    },
  );
}
