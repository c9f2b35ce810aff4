import { execFileSync } from 'node:child_process';
import { mkdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FixRequest } from '../../../src/api/contracts/fix.js';
import type { Reporter } from '../../../src/api/plugin.js';
import { API_VERSION } from '../../../src/api/plugin.js';
import { FixerError, PluginError } from '../../../src/api/errors.js';
import { scriptedFixer } from '../../../src/testing/scripted-fixer.js';
import { hasJournal } from '../../../src/safety/journal.js';
import { scriptRunner } from '../../../src/testing/script-runner.js';
import { FIX_ADD, WRONG_ADD, gate, hashTree, project, type Sandbox, sandboxes } from './support.js';

const { box, beside } = sandboxes();

/** Writes a test that fails on its first run and passes after (a marker beside the box says which). */
async function failsOnce(b: Sandbox, file: string): Promise<void> {
  const marker = join(b.root, '..', `${b.root.split('/').pop()}-fails-once`);
  beside(marker);
  await writeFile(
    join(b.root, file),
    `import { existsSync, writeFileSync } from 'node:fs';\nif (!existsSync(${JSON.stringify(marker)})) { writeFileSync(${JSON.stringify(marker)}, 'x'); throw new Error('first run fails'); }\n`,
  );
}

function failureOf(report: Awaited<ReturnType<typeof gate>>, test: string) {
  const f = report.projects[0]!.failures.find((x) => x.failure.tests.includes(test));
  if (!f)
    throw new Error(
      `no failure for ${test} in ${JSON.stringify(report.projects[0]!.failures.map((x) => x.failure.tests))}`,
    );
  return f;
}

describe('runGate on real node test processes', () => {
  it('asks the runner for each result as it comes, and streams them to the reporters that show them', async () => {
    const b = await box();
    const asked: boolean[] = [];
    const inner = scriptRunner();
    const runner = {
      ...inner,
      run: (ctx: Parameters<typeof inner.run>[0]) => {
        asked.push(ctx.onTestResult !== undefined);
        return inner.run(ctx);
      },
    };
    const ended: string[] = [];
    const endOnly: Reporter = {
      name: 'end-only',
      apiVersion: API_VERSION,
      onRunEnd: (r) => void ended.push(r.runId),
    };
    await gate(b, [], { mode: 'no-heal', projects: [project(b.root, { runner })], reporters: [endOnly] });
    expect(ended).toHaveLength(1);
    // checked and redacted as they come even when no reporter shows them
    expect(asked.length).toBeGreaterThan(0);
    expect(asked.every((given) => given)).toBe(true);
    asked.length = 0;

    const streamed: string[] = [];
    const live: Reporter = {
      name: 'live',
      apiVersion: API_VERSION,
      onTestResult: (e) => void streamed.push(e.test.id),
    };
    await gate(b, [], {
      mode: 'no-heal',
      projects: [project(b.root, { runner })],
      reporters: [endOnly, live],
    });
    expect(asked.length).toBeGreaterThan(0);
    expect(asked.every((given) => given)).toBe(true);
    expect(streamed).toEqual(expect.arrayContaining(['tests/add.test.mjs']));
  });
  it('heals a failure in fix mode and keeps the edit', async () => {
    const b = await box();
    const fixer = scriptedFixer([FIX_ADD]);
    const report = await gate(b, [fixer], { mode: 'fix' });
    expect(report.projects[0]!.status).toBe('healed');
    expect(report.exitCode).toBe(0);
    const f = failureOf(report, 'tests/add.test.mjs');
    expect(f.outcome).toBe('healed');
    expect(f.applied).toBe(true);
    expect(f.attempts.map((a) => a.verdict)).toEqual(['healed']);
    expect(await readFile(join(b.root, 'src/math.mjs'), 'utf8')).toContain('return a + b;');
    // The request carried the evidence, the scope and a slice of the source under test.
    const request = fixer.requests[0]!;
    expect(request.failure.evidence).toContain('AssertionError');
    expect(request.scope.entries.map((e) => e.file)).toEqual(
      expect.arrayContaining(['tests/add.test.mjs', 'src/math.mjs']),
    );
    expect(JSON.stringify(request)).toContain('return a - b;');
    expect(report.projects[0]!.rounds.map((r) => r.kind)).toEqual([
      'initial',
      'retry',
      'retry',
      'regression',
    ]);
    expect(await hasJournal(b.root)).toBe(false);
  });

  it('rolls a wrong patch back, then heals with the right one', async () => {
    const b = await box();
    const fixer = scriptedFixer([WRONG_ADD, FIX_ADD]);
    const report = await gate(b, [fixer], { mode: 'fix' });
    const f = failureOf(report, 'tests/add.test.mjs');
    expect(f.attempts.map((a) => a.verdict)).toEqual(['failed-validation', 'healed']);
    expect(f.attempts[0]!.validation?.stillFailing.map((s) => s.id)).toEqual(['tests/add.test.mjs']);
    // The second request saw the first attempt's diff and outcome.
    expect(fixer.requests[1]!.history[0]!.diff).toContain('+  return a * b;');
    // ... and what the wrong patch caused: the test still failing, with its message.
    expect(fixer.requests[1]!.history[0]!.outcome).toMatch(
      /\nStill failing:\n- tests\/add\.test\.mjs: AssertionError: Expected values to be strictly equal: 6 !== 5$/,
    );
    expect(await readFile(join(b.root, 'src/math.mjs'), 'utf8')).toContain('return a + b;');
  });

  it('check mode leaves the tree byte-identical and writes a fixes.patch that git apply accepts', async () => {
    const b = await box();
    // A CRLF file and a file without a trailing newline are both healed.
    await writeFile(
      join(b.root, 'tests/greet.test.mjs'),
      "import assert from 'node:assert/strict';\nimport { greet } from '../src/greet.mjs';\n\nassert.equal(greet('ada'), 'hi ada');\n",
    );
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-qam', 'greet'], {
      cwd: b.root,
    });
    const before = await hashTree(b.root);
    const fixer = scriptedFixer([
      (req: FixRequest) =>
        req.failure.tests.includes('tests/add.test.mjs')
          ? FIX_ADD
          : {
              verdict: 'edits',
              rationale: 'greeting',
              edits: [
                { file: 'src/greet.mjs', search: 'return `hello ${name}`;', replace: 'return `hi ${name}`;' },
              ],
            },
      (req: FixRequest) =>
        req.failure.tests.includes('tests/add.test.mjs')
          ? FIX_ADD
          : {
              verdict: 'edits',
              rationale: 'greeting',
              edits: [
                { file: 'src/greet.mjs', search: 'return `hello ${name}`;', replace: 'return `hi ${name}`;' },
              ],
            },
    ]);
    const report = await gate(b, [fixer], { mode: 'check' });
    expect(report.projects[0]!.failures.map((f) => f.outcome)).toEqual(['healed', 'healed']);
    // healed means validated: the tree still fails, and the report says the heals are not in it
    expect(report.projects[0]!.failures.map((f) => f.applied)).toEqual([false, false]);
    expect(await hashTree(b.root)).toEqual(before);
    expect(report.exitCode).toBe(1);
    const patchFile = join(report.runDir!, 'fixes.patch');
    expect(await readFile(patchFile, 'utf8')).toBe(report.patch);
    expect(report.patch).toContain('\\ No newline at end of file');
    execFileSync('git', ['apply', '--check', patchFile], { cwd: b.root });
    execFileSync('git', ['apply', patchFile], { cwd: b.root });
    expect(await readFile(join(b.root, 'src/greet.mjs'), 'utf8')).toBe(
      'export function greet(name) {\r\n  return `hi ${name}`;\r\n}',
    );
    expect(await readFile(join(b.root, 'src/math.mjs'), 'utf8')).toMatch(
      /return a \+ b;\n\}\n\nexport function mul\(a, b\) \{\n {2}return a \* b;\n\}$/,
    );
  });

  it('never sends a flaky test to a fixer', async () => {
    const b = await box();
    await failsOnce(b, 'tests/flaky.test.mjs');
    const fixer = scriptedFixer([FIX_ADD]);
    const report = await gate(b, [fixer], { mode: 'fix' });
    const flaky = failureOf(report, 'tests/flaky.test.mjs');
    expect(flaky.outcome).toBe('flaky');
    expect(fixer.requests.map((r) => r.failure.tests)).toEqual([['tests/add.test.mjs']]);
  });

  it('passes a check-mode gate whose only failure was flaky, and calls the project completed', async () => {
    const b = await box();
    await failsOnce(b, 'tests/add.test.mjs');
    const fixer = scriptedFixer([FIX_ADD]);
    const report = await gate(b, [fixer], { mode: 'check' });
    expect(failureOf(report, 'tests/add.test.mjs').outcome).toBe('flaky');
    expect(report.totals.flaky).toBe(1);
    // nothing was healed: the re-run passed
    expect(report.projects[0]!.status).toBe('completed');
    expect(report.exitCode).toBe(0);
    expect(fixer.requests).toEqual([]);
  });

  it('gives an infra failure no fixer call', async () => {
    const b = await box();
    await writeFile(
      join(b.root, 'tests/db.test.mjs'),
      "console.error('SUTURE_INFRA: database on port 5432 refused the connection');\nprocess.exit(1);\n",
    );
    await writeFile(
      join(b.root, 'tests/add.test.mjs'),
      "import assert from 'node:assert/strict';\nassert.ok(true);\n",
    );
    const fixer = scriptedFixer([FIX_ADD]);
    const report = await gate(b, [fixer], { mode: 'fix', healConfig: { flakyReruns: 0 } });
    const infra = failureOf(report, 'tests/db.test.mjs');
    expect(infra.outcome).toBe('unfixable');
    expect(infra.failure.kind).toBe('infra');
    expect(infra.reason).toContain('SUTURE_INFRA');
    expect(fixer.requests).toHaveLength(0);
    expect(report.projects[0]!.status).toBe('failed');
    expect(report.exitCode).toBe(1);
  });

  it('refuses a proposal outside the scope and writes nothing', async () => {
    const b = await box();
    const before = await hashTree(b.root);
    const fixer = scriptedFixer([
      { verdict: 'edits', rationale: 'x', edits: [{ file: 'README.md', content: 'changed\n' }] },
    ]);
    const report = await gate(b, [fixer], { mode: 'fix', healConfig: { maxAttempts: 1 } });
    const f = failureOf(report, 'tests/add.test.mjs');
    expect(f.attempts[0]!.verdict).toBe('refused');
    expect(f.attempts[0]!.reason).toContain('outside the failure');
    expect(f.outcome).toBe('exhausted');
    expect(await hashTree(b.root)).toEqual(before);
  });

  it('refuses traversal, absolute, symlink-escaping, denied, .git and .suture paths', async () => {
    const b = await box();
    const outside = join(tmpdir(), `suture-outside-${process.pid}`);
    await mkdir(outside, { recursive: true });
    await symlink(outside, join(b.root, 'src/linked'));
    const cases: Array<[string, string]> = [
      ['../escape.mjs', 'climbs out'],
      ['/etc/passwd', 'absolute path'],
      ['src/linked/evil.mjs', 'outside the project root'],
      ['.git/config', 'denied by ".git/**"'],
      ['.suture/lock', 'denied by ".suture/**"'],
      ['src/secret.mjs', 'denied by "src/secret.mjs"'],
    ];
    const fixer = scriptedFixer(
      cases.map(([file]) => ({
        verdict: 'edits' as const,
        rationale: 'x',
        edits: [{ file, content: 'pwned\n' }],
      })),
    );
    const report = await gate(b, [fixer], {
      mode: 'fix',
      healConfig: { maxAttempts: cases.length, allowNewFiles: true, deniedPaths: ['src/secret.mjs'] },
    });
    const f = failureOf(report, 'tests/add.test.mjs');
    expect(f.attempts).toHaveLength(cases.length);
    cases.forEach(([, reason], i) => {
      expect(f.attempts[i]!.verdict).toBe('refused');
      expect(f.attempts[i]!.reason).toContain(reason);
    });
    await expect(readFile(join(outside, 'evil.mjs'))).rejects.toThrow(/ENOENT/);
    await expect(readFile(join(b.root, 'src/secret.mjs'))).rejects.toThrow(/ENOENT/);
    expect(await readFile(join(b.root, '.git/config'), 'utf8')).not.toContain('pwned');
    await rm(outside, { recursive: true, force: true });
  });

  it('refuses a search text found twice, refuses test weakening and flags an expectation change', async () => {
    const b = await box();
    await writeFile(
      join(b.root, 'src/math.mjs'),
      'export function add(a, b) {\n  return a - b;\n}\n\nexport function sub(a, b) {\n  return a - b;\n}\n\nexport function mul(a, b) {\n  return a * b;\n}\n',
    );
    const fixer = scriptedFixer([
      {
        verdict: 'edits',
        rationale: 'ambiguous',
        edits: [{ file: 'src/math.mjs', search: 'return a - b;', replace: 'return a + b;' }],
      },
      {
        verdict: 'edits',
        rationale: 'weaken',
        edits: [{ file: 'tests/add.test.mjs', search: 'assert.equal(add(2, 3), 5);', replace: '' }],
      },
      {
        verdict: 'edits',
        rationale: 'the spec says add subtracts',
        edits: [
          {
            file: 'tests/add.test.mjs',
            search: 'assert.equal(add(2, 3), 5);',
            replace: 'assert.equal(add(2, 3), -1);',
          },
        ],
      },
    ]);
    const report = await gate(b, [fixer], { mode: 'fix', healConfig: { maxAttempts: 3 } });
    const f = failureOf(report, 'tests/add.test.mjs');
    expect(f.attempts.map((a) => a.verdict)).toEqual(['refused', 'refused', 'healed']);
    expect(f.attempts[0]!.reason).toMatch(/occurs more than once/);
    expect(f.attempts[1]!.reason).toMatch(/test-weakening.*removes 1 assertion/);
    expect(f.attempts[2]!.expectationChanged).toBe(true);
  });

  it('stops early when the same failure comes back twice', async () => {
    const b = await box();
    const wrong = (n: number) => ({
      verdict: 'edits' as const,
      rationale: 'guess',
      edits: [{ file: 'src/math.mjs', search: 'return a - b;', replace: `return a - b + ${n} - ${n};` }],
    });
    const fixer = scriptedFixer([wrong(1), wrong(2), wrong(3), FIX_ADD]);
    const report = await gate(b, [fixer], { mode: 'fix', healConfig: { maxAttempts: 5 } });
    const f = failureOf(report, 'tests/add.test.mjs');
    expect(f.outcome).toBe('exhausted');
    expect(f.reason).toContain('same failure came back twice');
    expect(f.attempts).toHaveLength(2);
    expect(fixer.requests).toHaveLength(2);
  });

  it('reverts a heal that broke other tests in the regression run', async () => {
    const b = await box();
    const breaking = {
      verdict: 'edits' as const,
      rationale: 'rewrite',
      edits: [
        {
          file: 'src/math.mjs',
          content:
            'export function add(a, b) {\n  return a + b;\n}\n\nexport function mul(a, b) {\n  return 0;\n}\n',
        },
      ],
    };
    const fixer = scriptedFixer([breaking]);
    const report = await gate(b, [fixer], { mode: 'fix' });
    const f = failureOf(report, 'tests/add.test.mjs');
    expect(f.attempts[0]!.verdict).toBe('healed');
    expect(f.outcome).toBe('reverted');
    expect(f.broke).toEqual(['tests/mul.test.mjs']);
    expect(f.reason).toBe('the heal was reverted: the regression run broke tests/mul.test.mjs');
    expect(report.projects[0]!.status).toBe('failed');
    expect(report.exitCode).toBe(1);
    expect(report.projects[0]!.rounds.filter((r) => r.kind === 'regression').length).toBeGreaterThanOrEqual(
      1,
    );
    expect(await readFile(join(b.root, 'src/math.mjs'), 'utf8')).toContain('return a - b;');
  });

  describe('two failures in one file', () => {
    const MATH =
      'export function add(a, b) {\n  return a - b; // add\n}\n\nexport function mul(a, b) {\n  return a + b; // mul\n}\n\nexport function sub(a, b) {\n  return a - b; // sub\n}\n';
    const edit = (search: string, replace: string) => ({ file: 'src/math.mjs', search, replace });
    const setup = async (b: Sandbox): Promise<void> => {
      await writeFile(join(b.root, 'src/math.mjs'), MATH);
      await writeFile(
        join(b.root, 'tests/sub.test.mjs'),
        "import assert from 'node:assert/strict';\nimport { sub } from '../src/math.mjs';\n\nassert.equal(sub(5, 3), 2);\n",
      );
    };
    const isAdd = (req: FixRequest): boolean => req.failure.tests.includes('tests/add.test.mjs');

    it("a failed attempt on one failure does not undo another failure's heal in the same file", async () => {
      const b = await box();
      await setup(b);
      let mulCalls = 0;
      const step = (req: FixRequest) => {
        if (isAdd(req))
          return {
            verdict: 'edits' as const,
            rationale: 'add',
            edits: [edit('return a - b; // add', 'return a + b; // add')],
          };
        mulCalls++;
        return mulCalls === 1
          ? {
              verdict: 'edits' as const,
              rationale: 'wrong',
              edits: [edit('return a + b; // mul', 'return a - b; // mul')],
            }
          : {
              verdict: 'edits' as const,
              rationale: 'right',
              edits: [edit('return a + b; // mul', 'return a * b; // mul')],
            };
      };
      const report = await gate(b, [scriptedFixer([step, step, step])], { mode: 'fix' });
      const outcomes = report.projects[0]!.failures.map((f) => [
        f.failure.tests[0],
        f.outcome,
        f.attempts.map((a) => a.verdict).join(','),
      ]);
      expect(outcomes).toEqual([
        ['tests/add.test.mjs', 'healed', 'healed'],
        ['tests/mul.test.mjs', 'healed', 'failed-validation,healed'],
      ]);
      expect(await readFile(join(b.root, 'src/math.mjs'), 'utf8')).toBe(
        MATH.replace('a - b; // add', 'a + b; // add').replace('a + b; // mul', 'a * b; // mul'),
      );
      for (const t of ['add', 'mul', 'sub'])
        execFileSync(process.execPath, [`tests/${t}.test.mjs`], { cwd: b.root });
    });

    it('reverting a regression-breaking heal keeps the earlier heal of the same file', async () => {
      const b = await box();
      await setup(b);
      const step = (req: FixRequest) =>
        isAdd(req)
          ? {
              verdict: 'edits' as const,
              rationale: 'add',
              edits: [edit('return a - b; // add', 'return a + b; // add')],
            }
          : {
              verdict: 'edits' as const,
              rationale: 'mul and a needless sub change',
              edits: [
                edit('return a + b; // mul', 'return a * b; // mul'),
                edit('return a - b; // sub', 'return 0; // sub'),
              ],
            };
      const report = await gate(b, [scriptedFixer([step, step])], { mode: 'fix' });
      const add = failureOf(report, 'tests/add.test.mjs');
      const mul = failureOf(report, 'tests/mul.test.mjs');
      expect(add.outcome).toBe('healed');
      expect([mul.outcome, mul.broke]).toEqual(['reverted', ['tests/sub.test.mjs']]);
      expect(await readFile(join(b.root, 'src/math.mjs'), 'utf8')).toBe(
        MATH.replace('a - b; // add', 'a + b; // add'),
      );
      expect(report.projects[0]!.status).toBe('failed_after_repair');
    });
  });

  it('turns a throwing fixer and a garbage proposal into fixer-error and goes on', async () => {
    const b = await box();
    const spent = {
      inputTokens: 1200,
      outputTokens: 80,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
      costUsd: 0.02,
      calls: 1,
    };
    const thrower = scriptedFixer(
      [
        new PluginError('thrower', undefined, 'model overloaded', {
          cause: new FixerError('model overloaded', spent),
        }),
      ],
      'thrower',
    );
    const garbage = scriptedFixer(
      [{ verdict: 'edits', edits: 'not a list', usage: { ...spent, costUsd: 0.03 } } as never, FIX_ADD],
      'garbage',
    );
    const report = await gate(b, [thrower, garbage], { mode: 'fix', healConfig: { maxAttempts: 3 } });
    const f = failureOf(report, 'tests/add.test.mjs');
    expect(f.attempts.map((a) => [a.fixer, a.verdict])).toEqual([
      ['thrower', 'fixer-error'],
      ['garbage', 'fixer-error'],
      ['garbage', 'healed'],
    ]);
    expect(f.attempts[0]!.reason).toContain('model overloaded');
    expect(f.attempts[1]!.reason).toContain('invalid proposal');
    expect(f.outcome).toBe('healed');
    // what a failed call spent still counts
    expect(f.attempts.map((a) => a.usage?.costUsd)).toEqual([0.02, 0.03, undefined]);
    expect(report.totals).toMatchObject({ llmCalls: 2, inputTokens: 2400, outputTokens: 160, costUsd: 0.05 });
  });

  it('reports a runner returning garbage as a project error, not a crash, and calls every reporter hook in order', async () => {
    const b = await box();
    const events: string[] = [];
    const reporter: Reporter = {
      name: 'recorder',
      apiVersion: API_VERSION,
      onRunStart: () => void events.push('runStart'),
      onProjectStart: () => void events.push('projectStart'),
      onRoundEnd: () => void events.push('roundEnd'),
      onProjectEnd: () => {
        events.push('projectEnd');
        throw new Error('reporter bug');
      },
      onRunEnd: () => void events.push('runEnd'),
    };
    const bad = project(b.root, {
      runner: {
        name: 'bad',
        apiVersion: API_VERSION,
        language: 'x',
        supportsSelection: false,
        run: async () => ({ status: 'weird' }) as never,
      },
    });
    const report = await gate(b, [], { projects: [bad], reporters: [reporter] });
    expect(report.projects[0]!.status).toBe('failed');
    expect(report.projects[0]!.error).toContain('invalid RunResult');
    expect(report.exitCode).toBe(1);
    expect(events).toEqual(['runStart', 'projectStart', 'roundEnd', 'projectEnd', 'runEnd']);
    expect(b.logs.join('\n')).toContain('reporter bug');
  });

  it('product-bug verdict ends the case with the bug report', async () => {
    const b = await box();
    const fixer = scriptedFixer([
      {
        verdict: 'product-bug',
        rationale: 'spec',
        bug: { summary: 'add subtracts', expected: '5', actual: '-1', evidence: 'add(2, 3) returned -1' },
      },
    ]);
    const report = await gate(b, [fixer], { mode: 'fix' });
    const f = failureOf(report, 'tests/add.test.mjs');
    expect(f.outcome).toBe('product-bug');
    expect(f.bug?.summary).toBe('add subtracts');
  });

  it('no-heal mode reports without asking a fixer', async () => {
    const b = await box();
    const fixer = scriptedFixer([FIX_ADD]);
    const report = await gate(b, [fixer], { mode: 'no-heal' });
    expect(failureOf(report, 'tests/add.test.mjs').outcome).toBe('skipped');
    expect(fixer.requests).toHaveLength(0);
    expect(report.exitCode).toBe(1);
  });

  it('redacts secrets from the report, reporter events and fix requests', async () => {
    const b = await box();
    const secret = 'sk-live-abcdef0123456789';
    await writeFile(join(b.root, 'tests/add.test.mjs'), `throw new Error('token ${secret} rejected');\n`);
    const seen: string[] = [];
    const spy: Reporter = {
      name: 'spy',
      apiVersion: API_VERSION,
      onTestResult: (e) => void seen.push(JSON.stringify(e)),
      onRoundEnd: (e) => void seen.push(JSON.stringify(e)),
      onProjectEnd: (e) => void seen.push(JSON.stringify(e)),
    };
    const fixer = scriptedFixer([]);
    const report = await gate(b, [fixer], {
      mode: 'fix',
      env: { MY_API_TOKEN: secret },
      reporters: [spy],
      healConfig: { flakyReruns: 0 },
    });
    expect(fixer.requests).toHaveLength(1);
    expect(JSON.stringify(fixer.requests[0])).toContain('rejected');
    expect(JSON.stringify(fixer.requests[0])).not.toContain(secret);
    expect(JSON.stringify(report)).not.toContain(secret);
    expect(seen.length).toBeGreaterThanOrEqual(3);
    expect(seen.join('\n')).toContain('rejected');
    expect(seen.join('\n')).not.toContain(secret);
    expect(JSON.stringify(report)).toContain('rejected');
  });
});
