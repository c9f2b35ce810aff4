import { execFileSync } from 'node:child_process';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, suture, workspace } from './cli-support.js';

afterAll(cleanup);

const TESTS = `def test_ok():
    assert 1 + 1 == 2


def test_network():
    assert False, "the proxy is down"


def test_clock():
    assert False, "off by an hour in winter"
`;

interface Report {
  exitCode: number;
  totals: { quarantined: number };
  projects: Array<{
    status: string;
    failures: Array<{
      outcome: string;
      reason?: string;
      failure: { tests: string[] };
      attempts: unknown[];
      quarantine?: Array<{ owner: string; expired: boolean }>;
    }>;
  }>;
}

async function repo(quarantine: unknown[]): Promise<string> {
  const dir = await workspace();
  await mkdir(join(dir, 'py/tests'), { recursive: true });
  await writeFile(join(dir, 'py/tests/test_q.py'), TESTS);
  await writeFile(
    join(dir, 'suture.config.json'),
    JSON.stringify({
      projects: [{ name: 'py', root: 'py', runner: 'pytest' }],
      fixers: ['hints'],
      heal: { flakyReruns: 0, quarantine },
    }),
  );
  execFileSync('sh', ['-c', 'printf ".suture/\\n" > .gitignore && git init -q && git add -A'], { cwd: dir });
  execFileSync('git', ['-c', 'user.email=t@e', '-c', 'user.name=t', 'commit', '-qm', 'x'], { cwd: dir });
  return dir;
}

async function report(dir: string): Promise<Report> {
  const runs = join(dir, '.suture/runs');
  const [run] = (await readdir(runs)).sort().reverse();
  return JSON.parse(await readFile(join(runs, run!, 'report.json'), 'utf8')) as Report;
}

const failureOf = (r: Report, test: string) =>
  r.projects[0]!.failures.find((f) => f.failure.tests.some((t) => t.endsWith(`::${test}`)))!;

describe('heal.quarantine', () => {
  it('runs and reports quarantined tests without blocking or asking a fixer; an expired entry blocks again, naming its owner', async () => {
    const dir = await repo([
      { test: 'tests/test_q.py::test_net*', owner: 'team-infra', expires: '2999-12-31', reason: 'PROXY-12' },
      { test: 'tests/test_q.py::test_clock', owner: 'ana', expires: '2020-01-31' },
    ]);
    const r = await suture(['run'], dir);
    const rep = await report(dir);
    // the expired entry no longer holds test_clock: the gate is red because of it alone
    expect(r.code).toBe(1);
    const network = failureOf(rep, 'test_network');
    expect(network.outcome).toBe('quarantined');
    expect(network.attempts).toEqual([]);
    expect(network.reason).toMatch(/owner team-infra, until 2999-12-31: PROXY-12/);
    expect(network.quarantine).toEqual([expect.objectContaining({ owner: 'team-infra', expired: false })]);
    const clock = failureOf(rep, 'test_clock');
    expect(clock.outcome).not.toBe('quarantined');
    // it went up the ladder like any failure
    expect(clock.attempts.length).toBeGreaterThan(0);
    expect(clock.reason).toMatch(
      /the quarantine of tests\/test_q\.py::test_clock \(owner ana, expired 2020-01-31\) is over/,
    );
    expect(r.stderr + r.stdout).toMatch(/owner ana, expired 2020-01-31/);
    expect(rep.totals.quarantined).toBe(1);
    expect(r.stdout + r.stderr).toMatch(/1 quarantined/);
  });

  it('lets the gate pass when every failure is quarantined', async () => {
    const dir = await repo([{ test: 'tests/test_q.py::test_*', owner: 'team-infra', expires: '2999-12-31' }]);
    const r = await suture(['run'], dir);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const rep = await report(dir);
    expect(rep.projects[0]!.status).toBe('completed');
    expect(rep.projects[0]!.failures.map((f) => f.outcome)).toEqual(['quarantined', 'quarantined']);
  });

  it('refuses an entry without an owner or with a date that is not one: exit 2, naming the key', async () => {
    const dir = await repo([{ test: 'tests/test_q.py::test_network', owner: 'x', expires: '31/12/2999' }]);
    const r = await suture(['run'], dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /heal\.quarantine\[0\]\.expires: a date written YYYY-MM-DD \(found "31\/12\/2999"\)/,
    );
    const noOwner = await repo([{ test: 'tests/test_q.py::test_network', expires: '2999-12-31' }]);
    const r2 = await suture(['run'], noOwner);
    expect(r2.code).toBe(2);
    expect(r2.stderr).toMatch(/heal\.quarantine\[0\]\.owner/);
  });
});
