import { join } from 'node:path';
import type { AutoRunAttempt } from '../../api/contracts/autorun.js';
import type { GateReport } from '../../api/contracts/report.js';
import { runGate } from '../gate.js';
import type { GateProject } from '../types.js';
import type { AutoRunOptions, Candidate } from './types.js';

/**
 * Heals the generated files with the fixer ladder through the gate, in fix mode, with the
 * project's edit policy narrowed to those files: a fix may touch a generated test and nothing
 * else (never the code under test, never an existing test), at most `maxFixAttempts` times per
 * failure, no new files. The gate's own journal, validation and weakening guard apply as in
 * `suture run --fix`; its report is kept in the run folder.
 */
export async function healGenerated(
  options: AutoRunOptions,
  candidates: readonly Candidate[],
  runDir: string,
  label: string,
  maxFixAttempts: number,
  selection: string[] | undefined,
): Promise<GateReport> {
  const { runner } = options.project;
  const project: GateProject = {
    ...options.project,
    // the gate's first run covers the generated tests only: the existing suite already ran, and
    // a file the filter left in place (manual rollback) must not stop it
    runner: selection
      ? {
          ...runner,
          supportsSelection: true,
          run: (ctx) => runner.run({ ...ctx, selection: ctx.selection ?? selection }),
        }
      : runner,
    heal: {
      ...options.project.heal,
      maxAttempts: Math.max(1, maxFixAttempts),
      editable: 'both',
      allowedPaths: candidates.map((c) => c.file),
      allowNewFiles: false,
      regression: false,
    },
  };
  return runGate({
    root: options.root,
    outputDir: join(runDir, 'heal'),
    runId: label,
    mode: maxFixAttempts > 0 && options.fixers.length > 0 ? 'fix' : 'no-heal',
    projects: [project],
    fixers: options.fixers,
    reporters: [],
    concurrency: 1,
    // its validation runs are confined as the auto-run's own are
    workspace: 'in-place',
    sandbox: options.sandbox ?? 'auto',
    ...(options.sandboxEnv ? { sandboxEnv: [...options.sandboxEnv] } : {}),
    logger: options.logger,
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.env ? { env: options.env } : {}),
  });
}

const belongs = (candidate: Candidate, file: string | undefined, tests: readonly string[]): boolean =>
  file === candidate.file ||
  tests.some(
    (t) =>
      t.startsWith(`${candidate.file}::`) ||
      (candidate.entry !== undefined && (t === candidate.entry || t.startsWith(`${candidate.entry}::`))),
  );

/** The gate's attempts on a generated file's failures, for the auto-run report. */
export function attemptsFor(candidate: Candidate, report: GateReport): AutoRunAttempt[] {
  const out: AutoRunAttempt[] = [];
  for (const project of report.projects)
    for (const f of project.failures) {
      if (!belongs(candidate, f.failure.location?.file, f.failure.tests)) continue;
      for (const a of f.attempts)
        out.push({
          attempt: out.length + 1,
          fixer: a.fixer,
          verdict: a.verdict,
          ...(a.reason ? { reason: a.reason } : {}),
          ...(a.diff ? { diff: a.diff } : {}),
          validated: a.validation?.passed ?? false,
        });
    }
  return out;
}
