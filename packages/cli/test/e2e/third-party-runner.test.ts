import { execFileSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, REPO, suture, workspace } from './cli-support.js';

afterAll(cleanup);

// A third-party runner (shell checks, written from docs/runner.md) loaded by package name, and a
// third-party fixer loaded by path: the gate guards the runner's tests through its `testModel`.
const FIXTURE = join(REPO, 'docs/examples/runner-checks/test/fixtures/calc');
const FIXER = join(REPO, 'examples/plugins/suture-fixer-regex/index.mjs');

interface Rule {
  file: string;
  pattern: string;
  replace: string;
  flags?: string;
}

interface AttemptJson {
  verdict: string;
  reason?: string;
  expectationChanged: boolean;
}

async function gate(rules: Rule[]): Promise<{ outcome: string; attempt: AttemptJson; checks: string }> {
  const dir = await workspace(FIXTURE);
  await writeFile(
    join(dir, 'suture.config.json'),
    JSON.stringify({
      projects: [{ name: 'calc', root: '.', runner: 'suture-runner-checks' }],
      fixers: [[FIXER, { rules }]],
      heal: { maxAttempts: 1 },
      reporters: ['json'],
    }),
  );
  execFileSync('git', ['init', '-q'], { cwd: dir });
  const r = await suture(['run', '--json'], dir);
  const report = JSON.parse(r.stdout);
  const failure = report.projects[0].failures.find((f: { failure: { tests: string[] } }) =>
    f.failure.tests.includes('checks/calc.checks::subtracts'),
  );
  return {
    outcome: failure.outcome,
    attempt: failure.attempts[0],
    checks: await readFile(join(dir, 'checks/calc.checks'), 'utf8'),
  };
}

describe('a third-party runner with a testModel', () => {
  it('has a check made constant refused, with the reason, and its file left as it was', async () => {
    const { outcome, attempt, checks } = await gate([
      { file: 'checks/calc.checks', pattern: 'subtracts: .*', replace: 'subtracts: true' },
    ]);
    expect(outcome).not.toBe('healed');
    expect(attempt.verdict).toBe('refused');
    expect(attempt.reason).toMatch(/test-weakening edit to checks\/calc\.checks: in subtracts, .* constant/);
    expect(checks).toContain('subtracts: test "$(sh bin/calc.sh sub 5 3)" = 2');
  });

  it('has a check whose status is thrown away refused', async () => {
    const { attempt } = await gate([
      { file: 'checks/calc.checks', pattern: '= 2$', replace: '= 2 || true', flags: 'm' },
    ]);
    expect(attempt.verdict).toBe('refused');
    expect(attempt.reason).toMatch(/can no longer fail: its exit status is thrown away/);
  });

  it('heals the real bug in the code under test, unflagged', async () => {
    const { outcome, attempt } = await gate([
      { file: 'bin/calc.sh', pattern: '\\$\\(\\(\\$3 - \\$2\\)\\)', replace: '$(($2 - $3))' },
    ]);
    expect(outcome).toBe('healed');
    expect(attempt.expectationChanged).toBe(false);
  });
});
