import { execFileSync } from 'node:child_process';
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, REPO, suture, workspace } from './cli-support.js';

afterAll(cleanup);

const PY_FIXTURE = join(REPO, 'packages/runner-pytest/test/e2e/shop');

async function pyRepo(config: object): Promise<string> {
  const dir = await workspace();
  await mkdir(join(dir, 'app'));
  execFileSync('cp', ['-r', `${PY_FIXTURE}/.`, join(dir, 'app')]);
  await writeFile(join(dir, 'suture.config.json'), JSON.stringify(config, null, 2));
  execFileSync('git', ['init', '-q'], { cwd: dir });
  execFileSync('git', ['-c', 'user.email=t@e', '-c', 'user.name=t', 'add', '-A'], { cwd: dir });
  execFileSync('git', ['-c', 'user.email=t@e', '-c', 'user.name=t', 'commit', '-qm', 'x'], { cwd: dir });
  return dir;
}

describe('suture CLI', () => {
  it('prints help and version', async () => {
    const help = await suture(['--help'], REPO);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/run \[\.\.\.projects\]/);
    expect(help.stdout).toMatch(/recover/);
    const runHelp = await suture(['run', '--help'], REPO);
    expect(runHelp.stdout).toMatch(/--max-attempts <n>/);
    expect(runHelp.stdout).toMatch(
      /--no-heal +Report failures without asking any fixer; failed tests are not re-run unless --retries is given\s*\n/,
    );
    expect(runHelp.stdout).not.toContain('(default: true)');
    const version = await suture(['--version'], REPO);
    expect(version.stdout).toMatch(/suture\/0\.1\.0/);
  });

  it('exits 2 on a bad flag, an unknown command and a bad config, naming file and key', async () => {
    const dir = await workspace();
    expect((await suture(['run', '--bogus'], dir)).code).toBe(2);
    expect((await suture(['frobnicate'], dir)).code).toBe(2);
    const none = await suture(['run'], dir);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/run `suture init`/);
    await mkdir(join(dir, 'py'));
    await writeFile(
      join(dir, 'suture.config.json'),
      JSON.stringify({ projects: [{ name: 'py', root: 'py', runner: 'pytest', timeout: 5 }] }),
    );
    const bad = await suture(['run'], dir);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/suture\.config\.json: invalid config/);
    expect(bad.stderr).toMatch(/projects\[0\]: unknown key "timeout"; valid keys are .*"timeoutMs"/);
    await writeFile(
      join(dir, 'suture.config.json'),
      JSON.stringify({ projects: [{ name: 'py', root: 'py', runner: 'pytest' }] }),
    );
    const unknown = await suture(['run', 'web'], dir);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/unknown project "web"/);
    const maxAttempts = await suture(['run', '--max-attempts', 'zero'], dir);
    expect(maxAttempts.code).toBe(2);
    expect(maxAttempts.stderr).toMatch(/--max-attempts expects a positive integer/);
  });

  it('gates a Python project in check mode: exit 1, reports written, tree untouched', async () => {
    const dir = await pyRepo({
      projects: [
        { name: 'app', root: 'app', runner: ['pytest', { env: { SUTURE_FLAKY_MARKER: '/nonexistent/x' } }] },
      ],
      fixers: ['hints'],
    });
    const r = await suture(['run', '--json'], dir);
    expect(r.code).toBe(1);
    const report = JSON.parse(r.stdout);
    const outcomes = report.projects[0].failures
      .map((f: { outcome: string; failure: { kind: string } }) => `${f.failure.kind}:${f.outcome}`)
      .sort();
    expect(outcomes).toEqual(
      expect.arrayContaining(['exception:healed', 'infra:unfixable', 'assertion:unfixable']),
    );
    expect(r.stderr).toMatch(/python: |app: /);
    const runs = await readdir(join(dir, '.suture/runs'));
    const files = await readdir(join(dir, '.suture/runs', runs[0]!));
    expect(files).toEqual(
      expect.arrayContaining(['report.json', 'results.xml', 'summary.md', 'fixes.patch']),
    );
    expect(execFileSync('git', ['status', '--porcelain'], { cwd: dir, encoding: 'utf8' }).trim()).toBe('');
    execFileSync('git', ['apply', '--check', join(dir, '.suture/runs', runs[0]!, 'fixes.patch')], {
      cwd: dir,
    });
    // `suture report` re-renders the latest run
    const again = await suture(['report', '--reporter', 'markdown'], dir);
    expect(again.code).toBe(1);
    expect(await readFile(join(dir, '.suture/runs', runs[0]!, 'summary.md'), 'utf8')).toMatch(
      /## suture: failures remain/,
    );
    // a report.json from before the statuses were renamed is refused with what to do
    const reportFile = join(dir, '.suture/runs', runs[0]!, 'report.json');
    await writeFile(reportFile, JSON.stringify({ ...report, schemaVersion: 1 }));
    const old = await suture(['report', '--reporter', 'markdown'], dir);
    expect(old.code).toBe(2);
    expect(old.stderr).toMatch(
      /report\.json has report schema 1; this suture renders schema 2 .*run `suture run` again/,
    );
  });

  it('keeps heals with --fix and limits the ladder with --fixer', async () => {
    const dir = await pyRepo({
      projects: [{ name: 'app', root: 'app', runner: 'pytest' }],
      fixers: ['hints'],
    });
    const r = await suture(['run', '--fix', '--fixer', 'hints', '--reporter', 'console'], dir);
    expect(r.code).toBe(1);
    expect(await readFile(join(dir, 'app/inventory/stock.py'), 'utf8')).toContain('return total\n');
    const bad = await suture(['run', '--fixer', 'openai'], dir);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--fixer openai: not in suture\.config\.json#fixers/);
  });

  it('init detects a pytest project; doctor checks it; recover says when there is nothing to do', async () => {
    const dir = await workspace();
    await mkdir(join(dir, 'svc'));
    execFileSync('cp', ['-r', `${PY_FIXTURE}/.`, join(dir, 'svc')]);
    const init = await suture(['init'], dir);
    expect(init.code).toBe(0);
    expect(init.stdout).toMatch(/found pytest project "svc" in svc/);
    const config = JSON.parse(await readFile(join(dir, 'suture.config.json'), 'utf8'));
    expect(config.projects).toEqual([{ name: 'svc', root: 'svc', runner: 'pytest' }]);
    expect((await suture(['init'], dir)).code).toBe(2);
    const doctor = await suture(['doctor'], dir);
    expect(doctor.stdout).toMatch(/ok +svc: pytest \d/);
    expect(doctor.code).toBe(0);
    const recover = await suture(['recover'], dir);
    expect(recover.code).toBe(0);
    expect(recover.stdout).toMatch(/nothing to recover/);
  });

  it('doctor says how to install a missing interpreter', async () => {
    const dir = await workspace();
    await mkdir(join(dir, 'py'));
    await writeFile(
      join(dir, 'suture.config.json'),
      JSON.stringify({
        projects: [{ name: 'py', root: 'py', runner: ['pytest', { python: 'python-missing' }] }],
      }),
    );
    const doctor = await suture(['doctor'], dir);
    expect(doctor.code).toBe(1);
    expect(doctor.stdout).toMatch(/ERROR py: python-missing not found\n\s+fix: install Python 3/);
  });
});
