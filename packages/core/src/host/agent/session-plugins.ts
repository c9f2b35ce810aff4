import { posix, relative } from 'node:path';
import type { Failure, ScopeInput } from '../../api/contracts/failure.js';
import type { AttemptSummary, FixRequest } from '../../api/contracts/fix.js';
import type { Analyzer, Fixer, Runner } from '../../api/plugin.js';
import { matcher, toPosix } from '../../safety/paths.js';
import { AgentInputError } from './errors.js';
import type { SessionAttempt } from './session-store.js';

/**
 * The plugins of a heal, bent to the caller's request without touching the engine: the fixer
 * sees the change description and the session's earlier attempts, the analyzer's scope keeps to
 * the caller's allowed paths, and the runner runs the caller's test selection as "the suite".
 * Each wrapper inherits from the plugin it wraps, so every other method and field stays its own.
 */

/** Earlier attempts of the session on the same root cause: same fingerprint, or a test in common. */
export function earlierAttempts(attempts: readonly SessionAttempt[], failure: Failure): AttemptSummary[] {
  const tests = new Set(failure.tests);
  return attempts
    .filter((a) => a.fingerprint === failure.fingerprint || a.tests.some((t) => tests.has(t)))
    .map((a) => a.summary);
}

/** The request with the session's history first and the caller's description of the change. */
export function sessionRequest(
  request: FixRequest,
  earlier: readonly AttemptSummary[],
  changeDescription: string,
): FixRequest {
  const history = [...earlier, ...request.history].map((h, i) => ({ ...h, attempt: i + 1 }));
  return { ...request, changeDescription, history };
}

export function sessionFixer(
  fixer: Fixer,
  attempts: readonly SessionAttempt[],
  changeDescription: string,
): Fixer {
  const wrapped = Object.create(fixer) as Fixer & { propose: Fixer['propose'] };
  wrapped.propose = (request, ctx) =>
    fixer.propose(
      sessionRequest(request, earlierAttempts(attempts, request.failure), changeDescription),
      ctx,
    );
  return wrapped;
}

/** The analyzer with its scope cut to the caller's allowed paths (relative to the repository). */
export function allowedPathsAnalyzer(
  analyzer: Analyzer,
  repoRoot: string,
  projectRoot: string,
  allowedPaths: readonly string[],
): Analyzer {
  const allowed = matcher(allowedPaths);
  const prefix = toPosix(relative(repoRoot, projectRoot));
  const wrapped = Object.create(analyzer) as Analyzer & { scope: Analyzer['scope'] };
  wrapped.scope = async (failure, project): Promise<ScopeInput> => {
    const raw = await analyzer.scope(failure, project);
    const entries = [];
    const excluded = [...(raw.excluded ?? [])];
    for (const entry of raw.entries) {
      const repoFile = prefix ? posix.join(prefix, entry.file) : entry.file;
      if (allowed(repoFile)) entries.push(entry);
      else
        excluded.push({
          file: entry.file,
          reason: `outside the caller's allowed_paths (${allowedPaths.join(', ')})`,
        });
    }
    return { ...raw, entries, excluded };
  };
  return wrapped;
}

/** The runner with the caller's tests standing for the whole suite; a selection of its own stays. */
export function selectionRunner(runner: Runner, tests: readonly string[]): Runner {
  if (!runner.supportsSelection)
    throw new AgentInputError(
      'tests',
      `${runner.name} cannot run a selection of tests; leave tests out to run the whole suite`,
    );
  const wrapped = Object.create(runner) as Runner & { run: Runner['run'] };
  wrapped.run = (ctx) => runner.run(ctx.selection ? ctx : { ...ctx, selection: [...tests] });
  return wrapped;
}
