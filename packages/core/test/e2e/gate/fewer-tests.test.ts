import { spawnSync } from 'node:child_process';
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunResultInput } from '../../../src/api/contracts/run-result.js';
import type { Runner } from '../../../src/api/plugin.js';
import { scriptedFixer } from '../../../src/testing/scripted-fixer.js';
import { scriptRunner } from '../../../src/testing/script-runner.js';
import { gate, project, sandbox } from './support.js';

/**
 * A runner that imports every test file in one node process and trusts its exit code, as a
 * naive runner does: a `process.exit(0)` in the code under test ends the run early and green.
 */
function oneProcessRunner(): Runner {
  return {
    ...scriptRunner(),
    name: 'one-process',
    async run(ctx): Promise<RunResultInput> {
      const files =
        ctx.selection ??
        (await readdir(join(ctx.root, 'tests')))
          .filter((n) => n.endsWith('.test.mjs'))
          .sort()
          .map((n) => `tests/${n}`);
      const script = `for (const f of ${JSON.stringify(files)}) {
        try { await import('./' + f); console.log('ok ' + f); }
        catch (e) { process.exitCode = 1; console.log('not ok ' + f + ' ' + JSON.stringify(String(e.stack))); }
      }`;
      const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
        cwd: ctx.root,
        encoding: 'utf8',
      });
      const tests = [...r.stdout.matchAll(/^(ok|not ok) (\S+)(?: (.*))?$/gm)].map((m) => {
        const trace = m[3] ? (JSON.parse(m[3]) as string) : undefined;
        return {
          id: m[2]!,
          file: m[2]!,
          line: 1,
          status: m[1] === 'ok' ? ('passed' as const) : ('failed' as const),
          ...(trace ? { message: trace.split('\n')[0]!, trace } : {}),
        };
      });
      return {
        status: r.status === 0 ? 'passed' : 'failed',
        tests,
        exitCode: r.status,
        command: 'node -e <import tests/*.test.mjs>',
        durationMs: 1,
        selected: ctx.selection !== undefined,
      };
    },
  };
}

const roots: string[] = [];
afterEach(async () => {
  await Promise.all(roots.splice(0).map((r) => rm(r, { recursive: true, force: true })));
});

describe('a regression run that reports fewer tests than the initial run', () => {
  it('reverts the heal with the reason, though the runner exited 0', async () => {
    const box = await sandbox();
    roots.push(box.root);
    const fixer = scriptedFixer([
      {
        verdict: 'edits',
        rationale: 'fix add, and end the process in mul',
        edits: [
          { file: 'src/math.mjs', search: 'return a - b;', replace: 'return a + b;' },
          { file: 'src/math.mjs', search: 'return a * b;', replace: 'process.exit(0);' },
        ],
      },
    ]);
    const report = await gate(box, [fixer], {
      mode: 'fix',
      projects: [{ ...project(box.root), runner: oneProcessRunner() }],
    });
    const [add] = report.projects[0]!.failures;
    expect(add!.attempts[0]!.verdict).toBe('healed');
    expect(add).toMatchObject({
      outcome: 'reverted',
      broke: ['tests/mul.test.mjs'],
      reason: expect.stringContaining('the run reported 2 of the 3 tests it should have run'),
    });
    const regressions = report.projects[0]!.rounds.filter((r) => r.kind === 'regression');
    expect(regressions[0]!.status).toBe('passed');
    expect(regressions[0]!.tests).toHaveLength(2);
    expect(report.exitCode).toBe(1);
  }, 60_000);
});
