import { testSymbol } from './analyze.js';
import type { PythonProject } from './python-project.js';
import { traceTests, type Trace, type TracedTest, type TraceOptions } from './trace.js';

/** Tests one trace run takes at most: those a scope needs first, then other failing tests' own. */
const MAX_TRACED = 160;
/** A scope's passing tests found traced already that make a spectrum without tracing more. */
const ENOUGH_PASSING = 16;
/** The share of the time limit a run with tests taken along may use before it runs without them. */
const ALONG_SHARE = 0.6;

interface Memo {
  /** Undefined: asked for, but pytest did not run it (deselected, not collected). */
  run: TracedTest | undefined;
  /** Hashes of the files it entered and of its own test file, as they were when traced. */
  hashes: Map<string, string>;
}

/** What a scope asks to trace: the group's failing tests, its passing ones, and tests worth taking along. */
export interface TraceRequest {
  failing: readonly string[];
  passing: readonly string[];
  /** Other tests that failed in the run with their passing neighbours: scopes of other groups ask for them. */
  prefetch: readonly string[];
}

/**
 * What each test ran, kept per test while the files it ran are unchanged. One trace run takes
 * the tests of a group and those other groups of the same run will ask for, so the scopes of a
 * run's many groups (40 one-line bugs made 140) cost one pytest start, not one each.
 */
export class TraceMemo {
  private readonly runs = new Map<string, Memo>();

  private async valid(project: PythonProject, id: string): Promise<Memo | undefined> {
    const memo = this.runs.get(`${project.root}\0${id}`);
    if (!memo) return undefined;
    for (const [file, hash] of memo.hashes) if (((await project.hash(file)) ?? '') !== hash) return undefined;
    return memo;
  }

  /** The traces of `ids` that are known and current; the rest are missing. */
  async known(project: PythonProject, ids: readonly string[]): Promise<{ trace: Trace; missing: string[] }> {
    const trace: Trace = new Map();
    const missing: string[] = [];
    for (const id of ids) {
      const memo = await this.valid(project, id);
      if (!memo) missing.push(id);
      else if (memo.run) trace.set(id, memo.run);
    }
    return { trace, missing };
  }

  async set(project: PythonProject, ids: readonly string[], trace: Trace): Promise<void> {
    for (const id of ids) {
      const run = trace.get(id);
      const files = new Set([
        testSymbol(id).file,
        ...(run?.entered.map(([file]) => file) ?? []),
        ...(run?.receivers?.map(([file]) => file) ?? []),
      ]);
      const hashes = new Map<string, string>();
      for (const file of files) hashes.set(file, (await project.hash(file)) ?? '');
      this.runs.set(`${project.root}\0${id}`, { run, hashes });
    }
  }

  /**
   * The trace of a scope's tests: from memory when its failing tests and enough of its passing
   * ones are known, else by tracing what is missing and the prefetch with it (alone, when both
   * together run out of time). Undefined when its failing tests could not be traced.
   */
  async take(
    project: PythonProject,
    request: TraceRequest,
    options: TraceOptions,
    timeoutMs: number,
  ): Promise<Trace | undefined> {
    const wanted = [...request.failing, ...request.passing];
    const before = await this.known(project, wanted);
    const missingFailing = before.missing.filter((id) => request.failing.includes(id));
    const knownPassing = request.passing.length - before.missing.length + missingFailing.length;
    if (missingFailing.length === 0 && knownPassing >= Math.min(ENOUGH_PASSING, request.passing.length))
      return before.trace;
    const extra = (await this.known(project, request.prefetch)).missing.filter((id) => !wanted.includes(id));
    const all = [...before.missing, ...extra].slice(0, Math.max(MAX_TRACED, before.missing.length));
    let traced = all;
    // tests taken along must not cost the group its own trace: cut short, it runs again without them
    const along = all.length > before.missing.length;
    let trace = await traceTests(project.root, all, options, along ? timeoutMs * ALONG_SHARE : timeoutMs);
    if (!trace && along) {
      traced = before.missing;
      trace = await traceTests(project.root, traced, options, timeoutMs);
    }
    if (!trace) return undefined;
    await this.set(project, traced, trace);
    return (await this.known(project, wanted)).trace;
  }
}
