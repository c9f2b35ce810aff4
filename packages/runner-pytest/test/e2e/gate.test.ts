import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FixRequest } from '@suture/core';
import { scriptedFixer, snapshotTree } from '@suture/core/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, gate, gitStatus, repoWith } from './gate-support.js';

afterAll(cleanup);

/** Routes each request to the proposals scripted for the failing test it is about. */
function byTest(script: Record<string, Array<(r: FixRequest) => unknown>>) {
  const used: Record<string, number> = {};
  return (r: FixRequest) => {
    const key = Object.keys(script).find((k) => r.failure.tests.includes(k)) ?? '';
    const steps = script[key];
    const i = (used[key] = (used[key] ?? 0) + 1) - 1;
    return (steps?.[i]?.(r) ?? { verdict: 'unfixable', diagnosis: 'not scripted' }) as never;
  };
}

const TYPO = 'tests/test_stock.py::test_total_units';
const LOGIC = 'tests/test_pricing.py::test_discount_at_ten_units';
const typoFix = () => ({
  verdict: 'edits',
  rationale: 'spelling',
  edits: [{ file: 'inventory/stock.py', search: 'return totl', replace: 'return total' }],
});
const wrongLogicFix = () => ({
  verdict: 'edits',
  rationale: 'guess',
  edits: [{ file: 'inventory/pricing.py', search: 'return 0.10', replace: 'return 0.15' }],
});
const rightLogicFix = () => ({
  verdict: 'edits',
  rationale: 'boundary',
  edits: [{ file: 'inventory/pricing.py', search: 'if units > 10:', replace: 'if units >= 10:' }],
});

describe('the gate on a real pytest project', () => {
  it('heals a typo, rolls back a wrong patch then heals the logic bug, skips flaky and infra, and leaves the tree byte-identical', async () => {
    const { repo, root } = await repoWith('shop');
    const before = await snapshotTree(repo, ['.git/**', '.suture/**']);
    const marker = join(repo, 'flaky-marker');
    const fixer = scriptedFixer(
      Array(10).fill(byTest({ [TYPO]: [typoFix], [LOGIC]: [wrongLogicFix, rightLogicFix] })),
    );
    const report = await gate({
      repo,
      root,
      fixers: [fixer],
      runner: { env: { SUTURE_FLAKY_MARKER: marker } },
    });

    const outcomes = Object.fromEntries(report.projects[0]!.failures.map((f) => [f.failure.tests[0]!, f]));
    expect(outcomes[TYPO]!.outcome).toBe('healed');
    expect(outcomes[LOGIC]!.outcome).toBe('healed');
    expect(outcomes[LOGIC]!.attempts.map((a) => a.verdict)).toEqual(['failed-validation', 'healed']);
    expect(outcomes['tests/test_env.py::test_flaky_once']!.outcome).toBe('flaky');
    expect(outcomes['tests/test_env.py::test_service_is_up']).toMatchObject({
      outcome: 'unfixable',
      failure: { kind: 'infra' },
    });
    // neither the flaky test nor the infra failure reached the fixer
    const asked = fixer.requests.flatMap((r) => r.failure.tests);
    expect(asked).not.toContain('tests/test_env.py::test_flaky_once');
    expect(asked).not.toContain('tests/test_env.py::test_service_is_up');
    // the second logic attempt saw the first one in its history
    const second = fixer.requests.filter((r) => r.failure.tests.includes(LOGIC))[1]!;
    expect(second.history[0]).toMatchObject({
      verdict: 'failed-validation',
      diff: expect.stringContaining('+        return 0.15'),
    });

    expect(report.projects[0]!.status).toBe('failed_after_repair');
    expect(report.exitCode).toBe(1);
    expect(await snapshotTree(repo, ['.git/**', '.suture/**', 'flaky-marker'])).toEqual(before);
    expect(
      gitStatus(repo)
        .split('\n')
        .filter((l) => l && !l.includes('flaky-marker')),
    ).toEqual([]);
    // the patch of the validated heals applies to the untouched tree
    const patch = await readFile(join(report.runDir!, 'fixes.patch'), 'utf8');
    expect(patch).toContain('+    return total');
    expect(patch).toContain('+    if units >= 10:');
    expect(patch).not.toContain('0.15');
    execFileSync('git', ['apply', '--check', join(report.runDir!, 'fixes.patch')], { cwd: repo });
  });

  it('keeps validated heals in fix mode', async () => {
    const { repo, root } = await repoWith('shop');
    const fixer = scriptedFixer(Array(10).fill(byTest({ [TYPO]: [typoFix], [LOGIC]: [rightLogicFix] })));
    const report = await gate({
      repo,
      root,
      mode: 'fix',
      fixers: [fixer],
      runner: { env: { SUTURE_FLAKY_MARKER: join(repo, 'm') } },
      heal: { flakyReruns: 0 },
    });
    expect(report.projects[0]!.failures.filter((f) => f.outcome === 'healed')).toHaveLength(2);
    expect(await readFile(join(root, 'inventory/stock.py'), 'utf8')).toContain('return total\n');
    expect(await readFile(join(root, 'inventory/pricing.py'), 'utf8')).toContain('if units >= 10:');
    expect(gitStatus(repo).split('\n').filter(Boolean).sort()).toEqual([
      ' M app/inventory/pricing.py',
      ' M app/inventory/stock.py',
      '?? m',
    ]);
  });

  it('refuses a proposal outside the scope and writes nothing', async () => {
    const { repo, root } = await repoWith('shop');
    const outside = () => ({
      verdict: 'edits',
      rationale: 'x',
      edits: [{ file: 'inventory/untouched.py', search: 'return 1', replace: 'return 2' }],
    });
    const escaping = () => ({
      verdict: 'edits',
      rationale: 'x',
      edits: [{ file: '../../etc/passwd', content: 'x' }],
    });
    const fixer = scriptedFixer(Array(10).fill(byTest({ [TYPO]: [outside, escaping] })));
    const report = await gate({
      repo,
      root,
      fixers: [fixer],
      runner: { env: { SUTURE_FLAKY_MARKER: join(repo, 'm') } },
      heal: { maxAttempts: 2 },
    });
    const typo = report.projects[0]!.failures.find((f) => f.failure.tests.includes(TYPO))!;
    expect(typo.attempts.map((a) => a.verdict)).toEqual(['refused', 'refused']);
    expect(typo.attempts[0]!.reason).toMatch(/inventory\/untouched\.py is outside the failure's scope/);
    expect(typo.attempts[1]!.reason).toMatch(/climbs out with "\.\."/);
    expect(typo.outcome).toBe('exhausted');
    expect(gitStatus(repo).trim()).toBe('?? m');
    // no retry run happened for refused proposals: nothing was applied
    expect(report.projects[0]!.rounds.filter((r) => r.kind === 'retry').length).toBe(1); // the flaky triage only
  });

  it('reverts a heal that breaks other tests in the regression run', async () => {
    const { repo, root } = await repoWith('shop');
    // "fixes" the boundary by returning 0.10 always: test_no_discount_below_ten then fails
    const breaking = () => ({
      verdict: 'edits',
      rationale: 'x',
      edits: [{ file: 'inventory/pricing.py', search: '    return 0.0\n', replace: '    return 0.10\n' }],
    });
    const fixer = scriptedFixer(Array(10).fill(byTest({ [LOGIC]: [breaking] })));
    const report = await gate({
      repo,
      root,
      mode: 'fix',
      fixers: [fixer],
      runner: { env: { SUTURE_FLAKY_MARKER: join(repo, 'm') } },
      heal: { flakyReruns: 0, maxAttempts: 1 },
    });
    const logic = report.projects[0]!.failures.find((f) => f.failure.tests.includes(LOGIC))!;
    expect(logic).toMatchObject({
      outcome: 'reverted',
      broke: ['tests/test_pricing.py::test_no_discount_below_ten'],
    });
    expect(logic.reason).toMatch(/regression run broke tests\/test_pricing\.py::test_no_discount_below_ten/);
    expect(await readFile(join(root, 'inventory/pricing.py'), 'utf8')).toContain('return 0.0\n');
    expect(report.projects[0]!.rounds.filter((r) => r.kind === 'regression')).toHaveLength(2);
  });

  it('groups a collection error into one failure and times out a hanging test', async () => {
    const collect = await repoWith('collect');
    const fixer = scriptedFixer([]);
    const report = await gate({ ...collect, fixers: [fixer], heal: { maxAttempts: 1 } });
    expect(report.projects[0]!.failures).toHaveLength(1);
    expect(report.projects[0]!.failures[0]!.failure.kind).toBe('import');
    expect(fixer.requests).toHaveLength(1);
    expect(fixer.requests[0]!.scope.entries.map((e) => e.file)).toContain('pkg/core.py');

    const hang = await repoWith('hang');
    const hangReport = await gate({
      ...hang,
      fixers: [scriptedFixer([])],
      timeoutMs: 4000,
      heal: { maxAttempts: 1, flakyReruns: 0 },
    });
    const p = hangReport.projects[0]!;
    expect(p.rounds[0]!.status).toBe('timeout');
    expect(p.failures.map((f) => f.failure.kind)).toEqual(['timeout']);
    expect(p.rounds[0]!.tests.find((t) => t.id === 'tests/test_hang.py::test_first')!.status).toBe('passed');
  });

  it('turns a throwing fixer and a garbage answer into failed attempts and goes on to the next fixer', async () => {
    const { repo, root } = await repoWith('shop');
    const broken = scriptedFixer(Array(10).fill(new Error('model exploded')), 'broken');
    const garbage = scriptedFixer(Array(10).fill({ verdict: 'edits', edits: 'not a list' }), 'garbage');
    const good = scriptedFixer(Array(5).fill(byTest({ [TYPO]: [typoFix] })), 'good');
    const report = await gate({
      repo,
      root,
      fixers: [broken, garbage, good],
      runner: { env: { SUTURE_FLAKY_MARKER: join(repo, 'm') } },
      heal: { flakyReruns: 0, maxAttempts: 3 },
    });
    const typo = report.projects[0]!.failures.find((f) => f.failure.tests.includes(TYPO))!;
    expect(typo.attempts[0]).toMatchObject({
      fixer: 'broken',
      verdict: 'fixer-error',
      reason: 'model exploded',
    });
    expect(typo.attempts[1]).toMatchObject({
      fixer: 'garbage',
      verdict: 'fixer-error',
      reason: expect.stringMatching(/garbage returned an invalid proposal/),
    });
    expect(typo.outcome).toBe('healed');
    expect(typo.attempts.at(-1)!.fixer).toBe('good');
    expect(gitStatus(repo).trim()).toBe('?? m');
  });

  it('takes on the failures a healed collection error had hidden', async () => {
    const { repo, root } = await repoWith('collect');
    const { writeFile } = await import('node:fs/promises');
    await writeFile(
      join(root, 'tests/test_mod3.py'),
      'from pkg import compute\n\n\ndef test_compute_3():\n    assert compute(3) == 7\n',
    );
    const importFix = {
      verdict: 'edits',
      rationale: 'name',
      edits: [{ file: 'pkg/core.py', search: 'helper_that_does_not_exist', replace: 'helper' }],
    };
    const fixer = scriptedFixer(
      Array(10).fill((r: FixRequest) =>
        r.failure.kind === 'import' ? importFix : { verdict: 'unfixable', diagnosis: 'a logic bug' },
      ),
    );
    const report = await gate({ repo, root, fixers: [fixer], heal: { flakyReruns: 0 } });
    const outcomes = report.projects[0]!.failures.map((f) => [f.failure.kind, f.outcome, f.failure.tests]);
    expect(outcomes).toEqual([
      ['import', 'healed', []],
      ['assertion', 'unfixable', ['tests/test_mod3.py::test_compute_3']],
    ]);
    expect(report.projects[0]!.status).toBe('failed_after_repair');
  });

  it('refuses to start while an interrupted run left its journal', async () => {
    const { repo, root } = await repoWith('shop');
    const { Journal } = await import('@suture/core/internal');
    const journal = await Journal.create(repo, 'crashed');
    await journal.write('app/inventory/stock.py', 'garbage\n');
    await expect(gate({ repo, root, fixers: [] })).rejects.toThrow(/suture recover/);
    const { recover } = await import('@suture/core/internal');
    const outcome = await recover(repo);
    expect(outcome.restored).toEqual(['app/inventory/stock.py']);
    expect(gitStatus(repo).trim()).toBe('');
  });
});
