import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Scope } from '../api/contracts/failure.js';
import type { EditPolicy, Edit } from '../api/contracts/fix.js';
import type { Analyzer } from '../api/plugin.js';
import { deniedBy, matcher, normalizeEditPath, resolveRealPath } from '../safety/paths.js';
import { infrastructureEdit } from './infrastructure.js';
import { isTestFile } from './test-files.js';
import { checkTestWeakening } from './weakening.js';

/** Largest content a single edit may carry. */
export const MAX_EDIT_BYTES = 1024 * 1024;

export interface PlannedWrite {
  /** Project-relative POSIX path. */
  file: string;
  before: string | undefined;
  after: string;
}

export type ProposalCheck =
  | {
      ok: true;
      writes: PlannedWrite[];
      expectationChanged: boolean;
      /** Edited test files that no test model reads: the differential check is all that guards them. */
      unreadTests: string[];
    }
  | { ok: false; reason: string };

/**
 * Why a proposal that edits only tests no reader understands is refused: with the code under test
 * as it was, the validation run cannot tell a corrected test from one that checks less.
 */
function unreadOnly(files: readonly string[]): string {
  return `the proposal edits only ${files.join(', ')}, which no test reader understands (the analyzer has no testModel for ${files.length > 1 ? 'them' : 'it'}): with the code under test unchanged, an edit that makes a test pass cannot be told from one that checks less; fix the code under test, give the analyzer a testModel, or set heal.allowTestWeakening to accept such edits`;
}

/**
 * Where a proposal's files are read and resolved when they are not the user's tree: a
 * workspace's view, which holds the heals made so far. Paths are project-relative.
 */
export interface ProposalView {
  read(file: string): Promise<Buffer | undefined>;
  resolve(file: string): Promise<{ ok: true; path: string } | { ok: false; reason: string }>;
}

export interface ValidateInput {
  projectRoot: string;
  /** Read and resolve files here instead of under projectRoot. */
  view?: ProposalView;
  edits: readonly Edit[];
  scope: Scope;
  policy: EditPolicy;
  analyzer?: Analyzer;
  /** The run's signal: a proposal of many files is left unchecked once the run is interrupted. */
  signal?: AbortSignal;
}

async function readText(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

function occurrences(haystack: string, needle: string): number {
  let n = 0;
  for (let i = haystack.indexOf(needle); i !== -1; i = haystack.indexOf(needle, i + 1)) if (++n > 1) break;
  return n;
}

/** The code under test by name (the scope's symbols and module names): mocking them is refused. */
function underTest(scope: Scope): string[] {
  const names = new Set<string>();
  for (const e of scope.entries) {
    for (const s of e.symbols ?? []) names.add(s.split(/[.:]+/).pop()!);
    const stem = /([^/]+?)(?:\.[^./]+)?$/.exec(e.file)?.[1];
    if (stem && !/^(?:index|__init__|test_\w+|\w+[._-]test)$/.test(stem)) names.add(stem);
  }
  return [...names];
}

/** A refusal for an edit that makes a file reach into the test framework or the runner. */
function tamperingReason(file: string, why: string): string {
  return `tampering edit to ${file}: ${why}; code may not reach into the test framework or the runner (set heal.allowTestWeakening to allow it)`;
}

/**
 * Checks a fixer's edits against the scope and the edit policy and computes the resulting file
 * contents. Nothing is written here: the engine applies `writes` through the journal only when
 * this returns ok. Every refusal says why.
 */
/** Why a proposal was left unchecked or unwritten: the run was stopped (Ctrl-C, SIGTERM, SIGHUP). */
export const INTERRUPTED = 'the run was interrupted before the proposal was checked and written';

export async function validateEdits(input: ValidateInput): Promise<ProposalCheck> {
  const { policy, scope } = input;
  const view = input.view;
  const resolveIn = (rel: string): ReturnType<typeof resolveRealPath> =>
    view ? view.resolve(rel) : resolveRealPath(input.projectRoot, rel);
  const read = async (rel: string): Promise<string | undefined> =>
    view ? (await view.read(rel))?.toString('utf8') : readText(join(input.projectRoot, rel));
  const allowed = matcher(policy.allowedPaths);
  // Scope entries by the file they really are, so that a link inside the root names the same file.
  const inScope = new Set<string>();
  // resolved together: in a view each lookup is a request to its holder
  const reals = await Promise.all(scope.entries.map((e) => resolveIn(e.file)));
  scope.entries.forEach((e, i) => {
    inScope.add(e.file);
    const real = reals[i]!;
    if (real.ok) inScope.add(real.path);
  });
  const contents = new Map<string, { before: string | undefined; after: string }>();

  for (const [i, edit] of input.edits.entries()) {
    if (input.signal?.aborted) return { ok: false, reason: INTERRUPTED };
    const label = `edit ${i + 1}`;
    const norm = normalizeEditPath(edit.file);
    if (!norm.ok) return { ok: false, reason: `${label}: ${norm.reason}` };
    const given = norm.path;
    const real = await resolveIn(given);
    if (!real.ok) return { ok: false, reason: `${label}: ${real.reason}` };
    // Checked and written under the path it really is, not the one it was reached by.
    const file = real.path;
    const via = file === given ? '' : ` (reached through a symbolic link as ${given})`;
    for (const path of new Set([given, file])) {
      const denied = deniedBy(path, policy.deniedPaths);
      if (denied) return { ok: false, reason: `${label}: ${file}${via} is denied by "${denied}"` };
      if (!allowed(path))
        return { ok: false, reason: `${label}: ${file}${via} is outside heal.allowedPaths` };
    }

    let state = contents.get(file);
    if (!state) {
      const before = await read(file);
      if (!inScope.has(file) && !(before === undefined && policy.allowNewFiles)) {
        return {
          ok: false,
          reason: `${label}: ${file} is outside the failure's scope (in scope: ${[...inScope].slice(0, 10).join(', ') || 'nothing'})`,
        };
      }
      if (before === undefined && !('content' in edit))
        return { ok: false, reason: `${label}: ${file} does not exist` };
      if (before !== undefined && before.includes('\0'))
        return { ok: false, reason: `${label}: ${file} is a binary file` };
      state = { before, after: before ?? '' };
      contents.set(file, state);
      if (contents.size > policy.maxFilesPerAttempt) {
        return {
          ok: false,
          reason: `the proposal edits more than ${policy.maxFilesPerAttempt} files (heal.maxFilesPerAttempt)`,
        };
      }
    }

    const payload = 'content' in edit ? edit.content : `${edit.search}${edit.replace}`;
    if (Buffer.byteLength(payload) > MAX_EDIT_BYTES)
      return { ok: false, reason: `${label}: larger than ${MAX_EDIT_BYTES} bytes` };
    if (payload.includes('\0')) return { ok: false, reason: `${label}: contains a NUL byte` };

    if ('content' in edit) {
      state.after = edit.content;
    } else {
      const n = occurrences(state.after, edit.search);
      if (n === 0) return { ok: false, reason: `${label}: the search text was not found in ${file}` };
      if (n > 1)
        return {
          ok: false,
          reason: `${label}: the search text occurs more than once in ${file}; include more context`,
        };
      const at = state.after.indexOf(edit.search);
      state.after = state.after.slice(0, at) + edit.replace + state.after.slice(at + edit.search.length);
    }
  }

  let expectationChanged = false;
  const unreadTests: string[] = [];
  const writes: PlannedWrite[] = [];
  for (const [file, { before, after }] of contents) {
    if (before === after) continue;
    const test = isTestFile(file, input.analyzer, scope);
    if (test && policy.editable === 'source')
      return { ok: false, reason: `${file} is a test and heal.editable is "source"` };
    if (!test && policy.editable === 'tests')
      return { ok: false, reason: `${file} is not a test and heal.editable is "tests"` };
    const infrastructure = policy.allowTestWeakening ? undefined : infrastructureEdit(file, before, after);
    if (infrastructure) return { ok: false, reason: infrastructure };
    const syntax = input.analyzer?.checkSyntax?.(file, after);
    if (syntax) return { ok: false, reason: `${file} would not parse: ${syntax}` };
    if (test) {
      const verdict = checkTestWeakening(file, before, after, {
        ...(input.analyzer ? { analyzer: input.analyzer } : {}),
        protectedNames: underTest(scope),
      });
      if (verdict.weakening && !policy.allowTestWeakening) return { ok: false, reason: verdict.weakening };
      expectationChanged ||= verdict.expectationChanged;
      if (!verdict.readBy) unreadTests.push(file);
    }
    const tampering = policy.allowTestWeakening
      ? undefined
      : input.analyzer?.checkTampering?.(file, before, after);
    if (tampering) return { ok: false, reason: tamperingReason(file, tampering) };
    writes.push({ file, before, after });
  }
  if (writes.length === 0) return { ok: false, reason: 'the proposal changes nothing' };
  // tests and code together: the differential check runs the test edits over the original code
  if (unreadTests.length === writes.length && !policy.allowTestWeakening)
    return { ok: false, reason: unreadOnly(unreadTests) };
  return { ok: true, writes, expectationChanged, unreadTests };
}
