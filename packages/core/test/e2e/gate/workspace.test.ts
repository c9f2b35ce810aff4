import { readFile, rm, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Runner } from '../../../src/api/plugin.js';
import { hasJournal } from '../../../src/safety/journal.js';
import { requireIsolation } from '../../../src/safety/workspace/isolation.test-support.js';
import { scriptRunner } from '../../../src/testing/script-runner.js';
import { scriptedFixer } from '../../../src/testing/scripted-fixer.js';
import { FIX_ADD, WRONG_ADD, gate, hashTree, project, sandboxes } from './support.js';

// The copy-on-write workspace through the real gate: script-runner projects run with node, heals
// validated in the overlay, the user's tree written only when a --fix run lands them.
const { box } = sandboxes();

const MINE = 'export function add(a, b) {\n  return a - b; // the user is still on it\n}\n';

/** A runner that records, at each run, whether the user's tree is still as it started. */
function watching(root: string, start: Record<string, string>, runner: Runner = scriptRunner()) {
  const seen: boolean[] = [];
  const wrapped: Runner = {
    ...runner,
    run: async (ctx) => {
      const now = await hashTree(root);
      seen.push(JSON.stringify(now) === JSON.stringify(start));
      return runner.run(ctx);
    },
  };
  return {
    runner: wrapped,
    untouchedAtEveryRun: () => seen.length > 0 && seen.every(Boolean),
    runs: () => seen.length,
  };
}

describe('heals validated in the overlay workspace', () => {
  it('check mode never writes the tree: every run sees it untouched, and the patch is in the report', async (t) => {
    await requireIsolation(t, { overlay: true });
    const b = await box();
    const start = await hashTree(b.root);
    const watch = watching(b.root, start);
    const report = await gate(b, [scriptedFixer([WRONG_ADD, FIX_ADD])], {
      mode: 'check',
      workspace: 'overlay',
      sandbox: 'auto',
      projects: [project(b.root, { runner: watch.runner })],
    });
    expect(report.projects[0]!.failures.find((f) => f.failure.title.includes('add'))?.outcome).toBe('healed');
    expect(watch.runs()).toBeGreaterThan(3);
    expect(watch.untouchedAtEveryRun()).toBe(true);
    expect(await hashTree(b.root)).toEqual(start);
    expect(report.patch).toContain('-  return a - b;\n+  return a + b;');
    expect(report.isolation).toMatchObject({ workspace: 'overlay', processes: 'pid-namespace' });
    expect(await hasJournal(b.root)).toBe(false);
  });

  it('fix mode writes the heal only at the end, through the journal', async (t) => {
    await requireIsolation(t, { overlay: true });
    const b = await box();
    const start = await hashTree(b.root);
    const watch = watching(b.root, start);
    const report = await gate(b, [scriptedFixer([WRONG_ADD, FIX_ADD])], {
      mode: 'fix',
      workspace: 'overlay',
      sandbox: 'auto',
      projects: [project(b.root, { runner: watch.runner, healConfig: { flakyReruns: 0 } })],
    });
    expect(watch.untouchedAtEveryRun()).toBe(true);
    expect(report.conflicts).toEqual([]);
    expect(await readFile(join(b.root, 'src/math.mjs'), 'utf8')).toContain('return a + b;');
    expect(report.projects[0]!.failures.find((f) => f.outcome === 'healed')?.applied).toBe(true);
    expect(await hasJournal(b.root)).toBe(false);
  });

  it("keeps the user's edit made while the fixer was thinking, reports the conflict and exits 1", async (t) => {
    await requireIsolation(t, { overlay: true });
    const b = await box();
    const fixer = scriptedFixer([
      async () => {
        // The user saves the file while the fixer answers.
        await writeFile(join(b.root, 'src/math.mjs'), MINE);
        return FIX_ADD;
      },
    ]);
    const report = await gate(b, [fixer], {
      mode: 'fix',
      workspace: 'overlay',
      sandbox: 'auto',
      healConfig: { flakyReruns: 0, regression: false },
    });
    expect(await readFile(join(b.root, 'src/math.mjs'), 'utf8')).toBe(MINE);
    expect(report.conflicts).toEqual([
      {
        file: 'src/math.mjs',
        reason: expect.stringMatching(/changed by someone else .*your version was kept/),
      },
    ]);
    expect(report.exitCode).toBe(1);
    // The heal was validated, and the tree does not hold it.
    const healed = report.projects[0]!.failures.filter((f) => f.outcome === 'healed');
    expect(healed.map((f) => f.applied)).toEqual([false]);
    // The patch is the heal against what the fixer saw: it removes no line of the user's.
    expect(report.patch).not.toContain('the user is still on it');
    expect(report.patch).toContain('+  return a + b;');
    expect(await hasJournal(b.root)).toBe(false);
  });

  it('does not re-create a file the user deleted during the run', async (t) => {
    await requireIsolation(t, { overlay: true });
    const b = await box();
    const fixer = scriptedFixer([
      async () => {
        await unlink(join(b.root, 'src/math.mjs'));
        return FIX_ADD;
      },
    ]);
    const report = await gate(b, [fixer], {
      mode: 'fix',
      workspace: 'overlay',
      sandbox: 'auto',
      healConfig: { flakyReruns: 0, regression: false },
    });
    await expect(readFile(join(b.root, 'src/math.mjs'))).rejects.toThrow(/ENOENT/);
    expect(report.conflicts).toEqual([
      { file: 'src/math.mjs', reason: expect.stringContaining('deleted by someone else') },
    ]);
    expect(report.exitCode).toBe(1);
  });

  it("never puts a rejected patch into the user's file, whatever the user edits meanwhile", async (t) => {
    await requireIsolation(t, { overlay: true });
    const b = await box();
    const fixer = scriptedFixer([
      WRONG_ADD,
      async () => {
        // The rejected patch was validated and undone; the user now edits the file.
        await writeFile(join(b.root, 'src/math.mjs'), MINE);
        return { verdict: 'unfixable', diagnosis: 'giving up' };
      },
    ]);
    const report = await gate(b, [fixer], {
      mode: 'fix',
      workspace: 'overlay',
      sandbox: 'auto',
      healConfig: { flakyReruns: 0, regression: false },
    });
    const attempts = report.projects[0]!.failures.flatMap((f) => f.attempts);
    expect(attempts[0]!.verdict).toBe('failed-validation');
    expect(await readFile(join(b.root, 'src/math.mjs'), 'utf8')).toBe(MINE);
    expect(report.conflicts).toEqual([]);
  });
});

describe('the initial run, which runs no patched code', () => {
  // A test that passes only where it sees a variable of the user's environment, which the
  // sandbox does not pass to patched code.
  const NEEDS_ENV =
    "import assert from 'node:assert/strict';\nassert.equal(process.env.CALC_SERVICE_URL, 'http://localhost:9');\n";
  const withVariable = async <T>(fn: () => Promise<T>): Promise<T> => {
    process.env.CALC_SERVICE_URL = 'http://localhost:9';
    try {
      return await fn();
    } finally {
      delete process.env.CALC_SERVICE_URL;
    }
  };

  it("runs in the user's tree and environment, as their runner would: a suite green natively is green", async (t) => {
    await requireIsolation(t, { overlay: true });
    const b = await box();
    const math = join(b.root, 'src/math.mjs');
    await writeFile(math, (await readFile(math, 'utf8')).replace('return a - b;', 'return a + b;'));
    await writeFile(join(b.root, 'tests/service.test.mjs'), NEEDS_ENV);
    const report = await withVariable(() =>
      gate(b, [scriptedFixer([])], { mode: 'check', workspace: 'overlay', sandbox: 'auto' }),
    );
    expect(report.projects[0]!.rounds.map((r) => r.kind)).toEqual(['initial']);
    expect(report.projects[0]!.rounds[0]!.tests.find((x) => x.id.includes('service'))?.status).toBe('passed');
    expect(report.exitCode).toBe(0);
    // what runs of patched code would have got is still said
    expect(report.isolation).toMatchObject({ workspace: 'overlay', sandbox: 'strict', envAllowlist: true });
  });

  it('a test failing only in the sandbox, with or without the heals, does not undo them', async (t) => {
    await requireIsolation(t, { overlay: true });
    const b = await box();
    await writeFile(join(b.root, 'tests/service.test.mjs'), NEEDS_ENV);
    const report = await withVariable(() =>
      gate(b, [scriptedFixer([FIX_ADD])], {
        mode: 'check',
        workspace: 'overlay',
        sandbox: 'auto',
        healConfig: { flakyReruns: 0 },
      }),
    );
    const p = report.projects[0]!;
    expect(p.rounds[0]!.tests.find((x) => x.id.includes('service'))?.status).toBe('passed');
    expect(p.failures.find((f) => f.failure.title.includes('add'))?.outcome).toBe('healed');
    expect(report.patch).toContain('+  return a + b;');
    // undone once, the service test still failed: the heal went back in and was kept
    expect(p.rounds.filter((r) => r.kind === 'regression').length).toBe(3);
    expect(b.logs.join('\n')).toMatch(
      /warn 1 test\(s\) that passed in the first run fail with no heal in place.*service.*"sandboxEnv"/,
    );
  });
});

describe('the regression run', () => {
  it('in place, a test that starts failing on its own does not undo the heals: they are put back, the fix kept', async () => {
    const b = await box();
    // passes on its first run only
    const count = join(b.root, '..', `${b.root.split('/').pop()}-runs`);
    await writeFile(
      join(b.root, 'tests/clock.test.mjs'),
      `import { appendFileSync, readFileSync } from 'node:fs';\nappendFileSync(${JSON.stringify(count)}, 'x');\nif (readFileSync(${JSON.stringify(count)}, 'utf8').length > 1) throw new Error('the clock moved');\n`,
    );
    try {
      const report = await gate(b, [scriptedFixer([FIX_ADD])], {
        mode: 'fix',
        healConfig: { flakyReruns: 0 },
      });
      const p = report.projects[0]!;
      expect(p.failures.find((f) => f.failure.title.includes('add'))?.outcome).toBe('healed');
      expect(await readFile(join(b.root, 'src/math.mjs'), 'utf8')).toContain('return a + b;');
      expect(report.conflicts).toEqual([]);
      expect(b.logs.join('\n')).toMatch(
        /fail with no heal in place, so they do not count against the heals: tests\/clock/,
      );
      expect(await hasJournal(b.root)).toBe(false);
    } finally {
      await rm(count, { force: true });
    }
  });
});
