import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { z } from 'zod';
import type { ScopeInput } from '../api/contracts/failure.js';
import {
  FixProposalSchema,
  type Edit,
  type FixProposal,
  type FixRequest,
  type FixRequestSchema,
} from '../api/contracts/fix.js';
import { PluginError } from '../api/errors.js';
import type { Analyzer, Fixer } from '../api/plugin.js';
import { validateEdits } from '../engine/validate.js';
import { formatIssues } from '../host/format-issues.js';
import { wrapAnalyzer, wrapFixer } from '../host/wrap-plugin.js';
import { catchPluginExits, type PluginExit } from '../safety/process/plugin-exits.js';
import {
  check,
  ConformanceError,
  copyFixture,
  diffSnapshots,
  silentLogger,
  snapshotTree,
} from './conformance-utils.js';
import { sampleFixRequest } from './sample-fix-request.js';

type FixRequestInput = z.input<typeof FixRequestSchema>;
type Text = string | RegExp;

/** What a case expects of the fixer's answer, after the engine's own validation. */
export type FixerExpectation =
  | {
      verdict: 'edits';
      /** Project-relative path -> whole content after the edits are applied. Files not listed are not checked. */
      files?: Record<string, string>;
      /** The engine must refuse the edits, with a reason matching this (scope, policy, weakening...). */
      refused?: Text;
      /** Matches the rationale. */
      message?: Text;
    }
  | { verdict: 'product-bug'; /** Matches the bug's summary. */ message?: Text }
  | { verdict: 'unfixable'; /** Matches the diagnosis. */ message?: Text }
  /** The fixer throws (the engine records a fixer-error), with a message matching this. */
  | { throws: Text };

export interface FixerCase {
  name: string;
  /**
   * The project the request points at: a folder to copy, or files (path -> content) to write into
   * a fresh folder. Default: the sample shop project of `sampleFixRequest`.
   */
  project?: string | Record<string, string>;
  /**
   * Fields of the request (failure, scope, policy, history...); `project.root` always points at the
   * case's folder. Without `scope`, every file of an inline project is in scope; without
   * `sources`, each scope file is given whole. A function gets the folder first.
   */
  request?:
    | Partial<FixRequestInput>
    | ((root: string) => Partial<FixRequestInput> | Promise<Partial<FixRequestInput>>);
  expect: FixerExpectation;
}

export interface FixerCaseOptions {
  /** The analyzer the engine would use: its `checkSyntax` and `isTestFile` take part in validation. */
  analyzer?: Analyzer;
  /** Where project folders are made (default the OS temp dir). */
  tempParent?: string;
}

/** The files of the sample request's project (the discount starts above 10 units instead of at 10). */
export const SAMPLE_PROJECT: Readonly<Record<string, string>> = {
  'shop/pricing.py': 'def discount(units):\n    if units > 10:\n        return 0.1\n    return 0\n',
  'tests/test_pricing.py':
    'from shop.pricing import discount\n\n\ndef test_discount_at_ten_units():\n    assert discount(10) == 0.1\n',
};

/** Freezes a value and everything it holds, so a fixer that changes its request fails loudly. */
export function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

const matches = (text: string | undefined, want: Text): boolean =>
  typeof want === 'string' ? (text ?? '').includes(want) : want.test(text ?? '');
const show = (want: Text): string => (typeof want === 'string' ? JSON.stringify(want) : String(want));

async function makeProject(
  project: FixerCase['project'],
  parent: string | undefined,
): Promise<{ root: string; dispose: () => Promise<void>; inline?: string[] }> {
  if (typeof project === 'string') return copyFixture(project, parent);
  const base = await mkdtemp(join(parent ?? tmpdir(), 'suture-fixer-'));
  const root = join(base, 'project');
  const files = project ?? SAMPLE_PROJECT;
  for (const [file, content] of Object.entries(files)) {
    await mkdir(dirname(join(root, file)), { recursive: true });
    await writeFile(join(root, file), content);
  }
  return {
    root,
    dispose: () => rm(base, { recursive: true, force: true }),
    ...(project ? { inline: Object.keys(files) } : {}),
  };
}

async function buildRequest(
  c: FixerCase,
  root: string,
  inline: string[] | undefined,
  analyzer: Analyzer | undefined,
): Promise<FixRequest> {
  const over = (typeof c.request === 'function' ? await c.request(root) : c.request) ?? {};
  const scope: ScopeInput | undefined =
    over.scope ??
    (inline
      ? {
          entries: inline.map((file) => ({
            file,
            role: analyzer?.isTestFile?.(file) ? ('test' as const) : ('source' as const),
            reasons: ['a file of the case'],
          })),
        }
      : undefined);
  const base = sampleFixRequest({ ...over, ...(scope ? { scope } : {}) });
  const sources =
    over.sources ??
    (await Promise.all(
      base.scope.entries.map(async (e) => {
        const text = await readFile(join(root, e.file), 'utf8').catch(() => undefined);
        if (text === undefined) return undefined;
        const endLine = Math.max(1, text.split('\n').length - (text.endsWith('\n') ? 1 : 0));
        return { file: e.file, startLine: 1, endLine, text, reason: e.reasons.join('; ') };
      }),
    ).then((slices) => slices.filter((s) => s !== undefined)));
  return sampleFixRequest({
    ...over,
    scope: base.scope,
    sources,
    project: { ...base.project, ...over.project, root },
  });
}

/** What the fixer answered, checked like the engine checks it. */
async function answer(
  fixer: Fixer,
  request: FixRequest,
  root: string,
): Promise<{ proposal?: FixProposal; thrown?: Error }> {
  let raw: unknown;
  let exited: PluginExit | undefined;
  try {
    raw = await catchPluginExits(
      (exit) => (exited = exit),
      () => fixer.propose(request, { signal: new AbortController().signal, logger: silentLogger, root }),
    );
  } catch (caught) {
    check(
      !exited,
      `${fixer.name} called process.exit(${String(exited?.code ?? '')}) in propose: the gate stops the whole run for it as an internal error (exit 3); a fixer must return or throw`,
    );
    // the wrapper's PluginError carries the fixer's own throw: the case's expectation is about that
    const error = caught instanceof PluginError && caught.cause !== undefined ? caught.cause : caught;
    const e = error instanceof Error ? error : new Error(String(error));
    check(
      !(
        e instanceof TypeError &&
        /read.only|frozen|not extensible|Cannot (assign|add|delete)/i.test(e.message)
      ),
      `the fixer changed its request (${e.message}); a fixer must treat the request as read-only`,
    );
    return { thrown: e };
  }
  const parsed = FixProposalSchema.safeParse(raw);
  check(
    parsed.success,
    `the proposal is not a valid FixProposal:\n${
      parsed.success
        ? ''
        : formatIssues(parsed.error, raw)
            .map((l) => `  - ${l}`)
            .join('\n')
    }`,
  );
  return { proposal: parsed.data };
}

/**
 * Runs one case: makes the project, asks the fixer with a frozen request, checks that nothing was
 * written and that the answer parses, validates edits with the engine's `validateEdits`, and
 * compares the outcome with the expectation. Throws a ConformanceError that says what differed.
 * The fixer and the analyzer go through the wrappers the gate uses, so the case sees what the gate
 * sees: every hook the analyzer brings (`testModel` among them), an exit stopped and said.
 */
export async function checkFixerCase(
  fixer: Fixer,
  c: FixerCase,
  options: FixerCaseOptions = {},
): Promise<void> {
  fixer = wrapFixer(fixer, undefined, silentLogger);
  if (options.analyzer)
    options = { ...options, analyzer: wrapAnalyzer(options.analyzer, undefined, silentLogger) };
  const project = await makeProject(c.project, options.tempParent);
  try {
    const request = deepFreeze(
      await buildRequest(c, project.root, project.inline, options.analyzer).catch((error: unknown) => {
        // the case is wrong, not the fixer: say which case and which key
        throw new ConformanceError(
          `case "${c.name}": ${error instanceof Error ? error.message : String(error)}`,
        );
      }),
    );
    const before = await snapshotTree(project.root, []);
    const json = JSON.stringify(request);
    const kinds = fixer.kinds;
    check(
      !kinds || kinds.includes(request.failure.kind),
      `the fixer declares kinds [${kinds?.join(', ')}], so the engine never asks it about a "${request.failure.kind}" failure`,
    );
    const { proposal, thrown } = await answer(fixer, request, project.root);
    check(
      JSON.stringify(request) === json,
      'the fixer changed its request; a fixer must treat it as read-only',
    );
    const written = diffSnapshots(before, await snapshotTree(project.root, []));
    check(
      written.length === 0,
      `the fixer wrote project files (${written.join(', ')}); it must return edits instead`,
    );
    const want = c.expect;
    if ('throws' in want) {
      check(
        thrown,
        `expected the fixer to throw ${show(want.throws)}, got a "${proposal?.verdict}" proposal`,
      );
      check(
        matches(thrown.message, want.throws),
        `expected a throw matching ${show(want.throws)}, got: ${thrown.message}`,
      );
      return;
    }
    check(!thrown, `the fixer threw: ${thrown?.message}`);
    check(
      proposal!.verdict === want.verdict,
      `expected verdict "${want.verdict}", got "${proposal!.verdict}": ${summary(proposal!)}`,
    );
    if (proposal!.verdict === 'edits' && want.verdict === 'edits') {
      const done = await checkEdits(proposal!.edits, want, request, project.root, options.analyzer);
      if (done) return;
    }
    if (want.message)
      check(
        matches(summary(proposal!), want.message),
        `expected ${show(want.message)} in: ${summary(proposal!)}`,
      );
  } finally {
    await project.dispose();
  }
}

/** Validates edits as the engine does; true when the case expected (and got) a refusal. */
async function checkEdits(
  edits: Edit[],
  want: Extract<FixerExpectation, { verdict: 'edits' }>,
  request: FixRequest,
  root: string,
  analyzer: Analyzer | undefined,
): Promise<boolean> {
  const validation = await validateEdits({
    projectRoot: root,
    edits,
    scope: request.scope,
    policy: request.policy,
    ...(analyzer ? { analyzer } : {}),
  });
  if (want.refused) {
    check(
      !validation.ok,
      `expected the engine to refuse the edits (${show(want.refused)}), but it accepted them`,
    );
    check(
      matches(validation.reason, want.refused),
      `the engine refused the edits for another reason: ${validation.reason}`,
    );
    return true;
  }
  check(validation.ok, `the engine refuses the edits: ${validation.ok ? '' : validation.reason}`);
  for (const [file, content] of Object.entries(want.files ?? {})) {
    const write = validation.writes.find((w) => w.file === file);
    const after = write ? write.after : await readFile(join(root, file), 'utf8').catch(() => undefined);
    check(after === content, `${file} after the edits:\n${after ?? '(missing)'}\nexpected:\n${content}`);
  }
  return false;
}

function summary(p: FixProposal): string {
  if (p.verdict === 'edits') return p.rationale;
  if (p.verdict === 'product-bug') return p.bug.summary;
  return p.diagnosis;
}
