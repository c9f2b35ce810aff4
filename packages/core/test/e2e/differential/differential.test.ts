import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Edit, FixProposalInput } from '../../../src/api/contracts/fix.js';
import type { Fixer, Runner } from '../../../src/api/plugin.js';
import { hasJournal } from '../../../src/safety/journal.js';
import { requireIsolation } from '../../../src/safety/workspace/isolation.test-support.js';
import type { WorkspaceChoice } from '../../../src/safety/workspace/types.js';
import { scriptedFixer } from '../../../src/testing/index.js';
import { gate, hashTree, project, type Sandbox } from '../gate/support.js';
import { shellAnalyzer, shellChecks } from './shell-checks.js';

// The differential check protects a runner whose tests no reader of suture understands: the
// weakening guard cannot read a shell check, but running the test edits alone over the original
// code tells a fix from a test made to pass.
const made: string[] = [];
afterEach(async () => {
  for (const dir of made.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function box(change?: (root: string) => Promise<void>): Promise<Sandbox> {
  const root = await mkdtemp(join(tmpdir(), 'suture-differential-'));
  made.push(root);
  await cp(join(import.meta.dirname, 'calc-sh'), root, { recursive: true });
  await change?.(root);
  const git = (...args: string[]): void =>
    void execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], {
      cwd: root,
      stdio: 'ignore',
    });
  git('init', '-q');
  git('add', '.');
  git('commit', '-qm', 'fixture');
  const quiet = (): undefined => undefined;
  return { root, logs: [], logger: { debug: quiet, info: quiet, warn: quiet, error: quiet } };
}

const CODE_FIX = { file: 'src/calc.sh', search: '$(($1 - $2))', replace: '$(($1 + $2))' };
/** Corrects the wrong expected value: with the old code the check still fails (-1 is not 5). */
const RIGHT_VALUE = { file: 'tests/add.t', search: '[ "$got" = 6 ]', replace: '[ "$got" = 5 ]' };
/** Compares the result with itself: passes whatever add does. */
const SELF_COMPARE = { file: 'tests/add.t', search: '[ "$got" = 6 ]', replace: '[ "$got" = "$(add 2 3)" ]' };

const proposal = (rationale: string, ...edits: Edit[]): FixProposalInput => ({
  verdict: 'edits',
  rationale,
  edits,
});

/** The shell project's runner, counting its runs; `onRun(n)` is called as run n starts. */
function counted(onRun?: (n: number) => void): { runner: Runner; runs: () => number } {
  const inner = shellChecks();
  let n = 0;
  return {
    runner: {
      ...inner,
      run: (ctx) => {
        n += 1;
        onRun?.(n);
        return inner.run(ctx);
      },
    },
    runs: () => n,
  };
}

async function shellGate(
  b: Sandbox,
  fixers: Fixer[],
  workspace: WorkspaceChoice,
  runner: Runner = shellChecks(),
  signal?: AbortSignal,
): ReturnType<typeof gate> {
  return gate(b, fixers, {
    mode: 'fix',
    workspace,
    ...(signal ? { signal } : {}),
    projects: [
      project(b.root, {
        name: 'shell',
        runner,
        analyzer: shellAnalyzer(),
        healConfig: { flakyReruns: 0, maxAttempts: 1 },
      }),
    ],
  });
}

describe.each<WorkspaceChoice>(['in-place', 'overlay'])('the differential check (%s)', (workspace) => {
  it('refuses a code fix whose test edit alone makes the check pass: nothing is kept, the report says why', async (t) => {
    if (workspace === 'overlay') await requireIsolation(t, { overlay: true });
    const b = await box();
    const before = await hashTree(b.root);
    const { runner, runs } = counted();
    const fixer = scriptedFixer([proposal('add must add; compare with add', CODE_FIX, SELF_COMPARE)]);
    const report = await shellGate(b, [fixer], workspace, runner);
    const [failure] = report.projects[0]!.failures;
    expect(failure!.outcome).toBe('exhausted');
    const attempt = failure!.attempts[0]!;
    expect(attempt.verdict).toBe('refused');
    expect(attempt.reason).toMatch(
      /^the test edits alone make tests\/add\.t pass against the original code under test \(src\/calc\.sh as it was\)/,
    );
    expect(attempt.differential).toMatchObject({ restored: ['src/calc.sh'], passing: ['tests/add.t'] });
    expect(attempt.differential!.command).toBe('sh tests/add.t');
    expect(attempt.validation?.passed).toBe(true);
    // initial, validation, the differential run: one run more than a heal without it
    expect(runs()).toBe(3);
    expect(report.exitCode).toBe(1);
    expect(await hashTree(b.root)).toEqual(before);
    expect(await hasJournal(b.root)).toBe(false);
  });

  it('keeps a fix of the code and of a wrong expected value: the edited check still fails on the old code', async (t) => {
    if (workspace === 'overlay') await requireIsolation(t, { overlay: true });
    const b = await box();
    const { runner, runs } = counted();
    const fixer = scriptedFixer([proposal('add must add, and 2 + 3 is 5', CODE_FIX, RIGHT_VALUE)]);
    const report = await shellGate(b, [fixer], workspace, runner);
    const [failure] = report.projects[0]!.failures;
    expect(failure!.outcome).toBe('healed');
    const attempt = failure!.attempts[0]!;
    expect(attempt.verdict).toBe('healed');
    expect(attempt.differential).toMatchObject({ restored: ['src/calc.sh'], passing: [] });
    // initial, validation, differential, regression
    expect(runs()).toBe(4);
    expect(report.exitCode).toBe(0);
    expect(await readFile(join(b.root, 'src/calc.sh'), 'utf8')).toContain('$(($1 + $2))');
    expect(await readFile(join(b.root, 'tests/add.t'), 'utf8')).toContain('[ "$got" = 5 ]');
  });

  it('runs no differential check for a proposal that edits only code', async (t) => {
    if (workspace === 'overlay') await requireIsolation(t, { overlay: true });
    const b = await box((root) =>
      writeFile(join(root, 'tests/add.t'), '. ./src/calc.sh\n[ "$(add 2 3)" = 5 ] || exit 1\n'),
    );
    const { runner, runs } = counted();
    const report = await shellGate(
      b,
      [scriptedFixer([proposal('add must add', CODE_FIX)])],
      workspace,
      runner,
    );
    const attempt = report.projects[0]!.failures[0]!.attempts[0]!;
    expect(attempt.verdict).toBe('healed');
    expect(attempt.differential).toBeUndefined();
    // initial, validation, regression
    expect(runs()).toBe(3);
  });

  it('is interrupted during its run: the proposal is undone, not healed, and the tree is as it was', async (t) => {
    if (workspace === 'overlay') await requireIsolation(t, { overlay: true });
    const b = await box();
    const before = await hashTree(b.root);
    const controller = new AbortController();
    // run 3 is the differential run: Ctrl-C arrives as it starts
    const { runner } = counted((n) => n === 3 && controller.abort());
    const fixer = scriptedFixer([proposal('add must add, and 2 + 3 is 5', CODE_FIX, RIGHT_VALUE)]);
    const report = await shellGate(b, [fixer], workspace, runner, controller.signal);
    const attempt = report.projects[0]!.failures[0]!.attempts[0]!;
    expect(attempt.verdict).toBe('refused');
    expect(attempt.reason).toMatch(/interrupted while the test edits were run against the original code/);
    expect(report.exitCode).not.toBe(0);
    expect(await hashTree(b.root)).toEqual(before);
    expect(await hasJournal(b.root)).toBe(false);
  });

  it('runs the test edits over the heals kept before: a weakening that needs an earlier heal is refused, the earlier heal stays', async (t) => {
    if (workspace === 'overlay') await requireIsolation(t, { overlay: true });
    // mul is wrong too; its check passes on its own only once add is healed
    const b = await box(async (root) => {
      await writeFile(
        join(root, 'src/calc.sh'),
        'add() { echo $(($1 - $2)); }\nmul() { echo $(($1 + $2)); }\n',
      );
    });
    const byTest: Record<string, FixProposalInput> = {
      'tests/add.t': proposal('add must add, and 2 + 3 is 5', CODE_FIX, RIGHT_VALUE),
      'tests/mul.t': proposal(
        'mul must multiply; check it against add',
        {
          file: 'src/calc.sh',
          search: 'mul() { echo $(($1 + $2)); }',
          replace: 'mul() { echo $(($1 * $2)); }',
        },
        { file: 'tests/mul.t', search: '[ "$got" = 6 ]', replace: '[ "$(add 2 3)" = 5 ]' },
      ),
    };
    const fixer: Fixer = {
      name: 'by-test',
      apiVersion: 1,
      propose: async (request) => byTest[request.failure.tests[0]!]!,
    };
    const report = await shellGate(b, [fixer], workspace);
    const outcome = Object.fromEntries(
      report.projects[0]!.failures.map((f) => [f.failure.tests[0], [f.outcome, f.attempts[0]?.verdict]]),
    );
    expect(outcome).toEqual({ 'tests/add.t': ['healed', 'healed'], 'tests/mul.t': ['exhausted', 'refused'] });
    const mul = report.projects[0]!.failures.find((f) => f.failure.tests[0] === 'tests/mul.t')!;
    expect(mul.attempts[0]!.differential?.passing).toEqual(['tests/mul.t']);
    expect(await readFile(join(b.root, 'src/calc.sh'), 'utf8')).toBe(
      'add() { echo $(($1 + $2)); }\nmul() { echo $(($1 + $2)); }\n',
    );
    expect(await readFile(join(b.root, 'tests/mul.t'), 'utf8')).toContain('[ "$got" = 6 ]');
  });
});

describe('the differential check in place', () => {
  it('keeps the code a user changed while the patch was validated: the proposal is refused and undone, the conflict reported', async () => {
    const b = await box();
    let validated = false;
    const inner = shellChecks();
    let n = 0;
    const runner: Runner = {
      ...inner,
      run: async (ctx) => {
        const result = await inner.run(ctx);
        validated = ++n === 2;
        return result;
      },
    };
    const mine = 'add() { echo "$(($1 + $2))"; } # mine\nmul() { echo $(($1 * $2)); }\n';
    // the user saves the file between the validation run and the differential check
    const analyzer = shellAnalyzer();
    const isTestFile = analyzer.isTestFile!;
    analyzer.isTestFile = (file) => {
      if (validated) {
        validated = false;
        writeFileSync(join(b.root, 'src/calc.sh'), mine);
      }
      return isTestFile(file);
    };
    const fixer = scriptedFixer([proposal('add must add, and 2 + 3 is 5', CODE_FIX, RIGHT_VALUE)]);
    const report = await gate(b, [fixer], {
      mode: 'fix',
      workspace: 'in-place',
      projects: [
        project(b.root, {
          name: 'shell',
          runner,
          analyzer,
          healConfig: { flakyReruns: 0, maxAttempts: 1 },
        }),
      ],
    });
    const attempt = report.projects[0]!.failures[0]!.attempts[0]!;
    expect(attempt.verdict).toBe('refused');
    expect(attempt.reason).toMatch(
      /^the test edits could not be run against the original code: src\/calc\.sh changed/,
    );
    expect(report.conflicts.map((c) => c.file)).toContain('src/calc.sh');
    expect(await readFile(join(b.root, 'src/calc.sh'), 'utf8')).toBe(mine);
    expect(await readFile(join(b.root, 'tests/add.t'), 'utf8')).toContain('[ "$got" = 6 ]');
    expect(await hasJournal(b.root)).toBe(false);
  });
});
