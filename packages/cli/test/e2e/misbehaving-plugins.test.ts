import { execFileSync } from 'node:child_process';
import { cp, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, suture, workspace } from './cli-support.js';

afterAll(cleanup);

const SCENARIO = fileURLToPath(new URL('./misbehaving/', import.meta.url));
const BUG = 'def add(a, b):\n    return a - b\n';

interface Report {
  exitCode: number;
  error?: string;
  pluginErrors: Array<{ plugin: string; message: string }>;
  projects: Array<{
    status: string;
    pluginErrors: Array<{ plugin: string; message: string }>;
    rounds: Array<{ kind: string; status: string; error?: string }>;
    failures: Array<{
      outcome: string;
      attempts: Array<{ fixer: string; verdict: string; reason?: string }>;
    }>;
  }>;
}

/** A git repository with the pytest project under `app/`, the plugins beside it, and this config. */
async function repo(config: Record<string, unknown>): Promise<string> {
  const dir = await workspace();
  await cp(join(SCENARIO, 'project'), join(dir, 'app'), { recursive: true });
  await cp(join(SCENARIO, 'plugins'), join(dir, 'plugins'), { recursive: true });
  await writeFile(
    join(dir, 'suture.config.json'),
    JSON.stringify({
      projects: [{ name: 'app', root: 'app', runner: 'pytest' }],
      reporters: ['json'],
      workspace: 'in-place',
      heal: { flakyReruns: 0, maxAttempts: 2 },
      ...config,
    }),
  );
  execFileSync('git', ['init', '-q'], { cwd: dir });
  execFileSync('git', ['add', '-A'], { cwd: dir });
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'init'], { cwd: dir });
  return dir;
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

/** The report.json of the only run in the repository. */
async function writtenReport(dir: string): Promise<Report> {
  const runs = join(dir, '.suture', 'runs');
  const [run, ...more] = await readdir(runs);
  expect(more).toEqual([]);
  return JSON.parse(await readFile(join(runs, run!, 'report.json'), 'utf8')) as Report;
}

/** What every stopped run must leave: no lock, no journal, the tree as it was, and a next run that starts. */
async function expectCleanEnd(dir: string): Promise<void> {
  expect(await exists(join(dir, '.suture', 'lock'))).toBe(false);
  expect(await exists(join(dir, '.suture', 'journal'))).toBe(false);
  expect(await readFile(join(dir, 'app', 'calc.py'), 'utf8')).toBe(BUG);
  // The next run starts: a lock or journal left behind would refuse it with exit 2.
  const next = await suture(['run', '--no-heal', '--reporter', 'json'], dir);
  expect(next.code, next.stderr).not.toBe(2);
  expect(next.stderr).not.toMatch(/holds|journal/);
}

describe('a plugin that calls process.exit during a run', () => {
  const cases: Array<[string, Record<string, unknown>, RegExp]> = [
    [
      'a fixer, in propose',
      { fixers: ['./plugins/exit-fixer.mjs'] },
      /exit-fixer \(suture\.config\.json#fixers\[0\]\) called process\.exit\(0\) in propose/,
    ],
    [
      'a fixer, from a timer it left running',
      { fixers: [['./plugins/exit-fixer.mjs', { later: true }]] },
      /exit-fixer \(suture\.config\.json#fixers\[0\]\) called process\.exit\(0\) in propose/,
    ],
    [
      'a runner, in run',
      { projects: [{ name: 'app', root: 'app', runner: './plugins/exit-runner.mjs' }] },
      /exit-runner \(suture\.config\.json#projects\[0\]\.runner\) called process\.exit\(0\) in run/,
    ],
    [
      'an analyzer, in analyze',
      {
        projects: [{ name: 'app', root: 'app', runner: 'pytest', analyzer: './plugins/exit-analyzer.mjs' }],
      },
      /exit-analyzer \(suture\.config\.json#projects\[0\]\.analyzer\) called process\.exit\(0\) in analyze/,
    ],
    [
      'a reporter, in onProjectEnd',
      { fixers: ['./plugins/fix-add.mjs'], reporters: ['json', './plugins/exit-reporter.mjs'] },
      /exit-reporter \(suture\.config\.json#reporters\[1\]\) called process\.exit\(0\) in onProjectEnd/,
    ],
  ];

  it.each(cases)(
    '%s: the gate ends with exit 3, its report written, the lock released',
    async (_, config, names) => {
      const dir = await repo(config);
      const r = await suture(['run', '--fix'], dir);
      expect(r.code, r.stderr).toBe(3);
      expect(r.stderr).toMatch(names);
      const report = await writtenReport(dir);
      expect(report.exitCode).toBe(3);
      expect(report.error).toMatch(names);
      await expectCleanEnd(dir);
    },
  );
});

describe('a plugin whose factory calls process.exit while the config loads', () => {
  it('is a broken plugin (exit 2, named), never an exit 0 that reads as green', async () => {
    const dir = await repo({ fixers: ['./plugins/exit-factory.mjs'] });
    const r = await suture(['run'], dir);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(
      './plugins/exit-factory.mjs (suture.config.json#fixers[0]): called process.exit(0) in its factory; a plugin must return or throw, never end the process',
    );
    expect(await exists(join(dir, '.suture', 'lock'))).toBe(false);
  });
});

describe('a fixer that never answers', () => {
  it('is stopped at heal.fixerTimeoutMs, its attempt ends fixer-error naming it and the setting, and the run goes on', async () => {
    const dir = await repo({
      fixers: ['./plugins/hang-fixer.mjs', './plugins/fix-add.mjs'],
      heal: { flakyReruns: 0, maxAttempts: 2, fixerTimeoutMs: 1000 },
    });
    const r = await suture(['run', '--fix'], dir);
    expect(r.code, r.stderr).toBe(0);
    const report = await writtenReport(dir);
    const [failure] = report.projects[0]!.failures;
    expect(failure!.attempts.map((a) => [a.fixer, a.verdict])).toEqual([
      ['hang-fixer', 'fixer-error'],
      ['fix-add', 'healed'],
    ]);
    expect(failure!.attempts[0]!.reason).toBe(
      'hang-fixer gave no answer within 1 s (heal.fixerTimeoutMs) and was stopped; raise heal.fixerTimeoutMs if it needs longer',
    );
    expect(failure!.outcome).toBe('healed');
    expect(await readFile(join(dir, 'app', 'calc.py'), 'utf8')).toContain('a + b');
  });
});

describe('a runner whose run never settles', () => {
  it("ends at the project's timeoutMs: the round is an error naming the runner and the setting, the report written", async () => {
    const dir = await repo({
      projects: [
        { name: 'app', root: 'app', runner: ['./plugins/exit-runner.mjs', { stuck: true }], timeoutMs: 1000 },
      ],
    });
    const r = await suture(['run'], dir);
    expect(r.code, r.stderr).toBe(1);
    const report = await writtenReport(dir);
    const [initial] = report.projects[0]!.rounds;
    expect(initial!.status).toBe('error');
    expect(initial!.error).toMatch(
      /^stuck-runner \(suture\.config\.json#projects\[0\]\.runner\): run did not return within 10 s after its time limit of 1 s \(the project's "timeoutMs"/,
    );
    expect(report.projects[0]!.pluginErrors.map((e) => e.plugin)).toContain('stuck-runner');
    expect(await exists(join(dir, '.suture', 'lock'))).toBe(false);
  });
});
