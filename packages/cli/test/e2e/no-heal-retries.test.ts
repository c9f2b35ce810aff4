import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { requireToolchain } from '@suture/core/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, suture, workspace } from './cli-support.js';

afterAll(cleanup);

// Every pytest session the gate starts appends a line to RUNS_LOG (a file outside the repository,
// which the gate neither watches nor restores): the count is what the runner was asked to do.
const CONFTEST = `import os

def pytest_sessionstart(session):
    with open(os.environ["RUNS_LOG"], "a") as log:
        log.write("session\\n")
`;

// test_flaky fails in the first session and passes in every later one (its marker outlives it).
const TESTS = `import os

def test_ok():
    assert 1 + 1 == 2

def test_broken():
    assert "a" == "b"

def test_flaky():
    marker = os.environ["FLAKY_MARKER"]
    if os.path.exists(marker):
        return
    open(marker, "w").close()
    assert False, "first run only"
`;

interface Project {
  dir: string;
  sessions: () => Promise<number>;
}

/** A one-project pytest repository with a passing, a failing and a flaky test, counting its sessions. */
async function project(heal: Record<string, unknown> = {}): Promise<Project> {
  const dir = await workspace();
  const outside = await workspace();
  const log = join(outside, 'runs.log');
  await mkdir(join(dir, 'py'));
  await writeFile(join(dir, 'py', 'conftest.py'), CONFTEST);
  await writeFile(join(dir, 'py', 'test_app.py'), TESTS);
  const env = { RUNS_LOG: log, FLAKY_MARKER: join(outside, 'flaky.marker') };
  await writeFile(
    join(dir, 'suture.config.json'),
    JSON.stringify({
      projects: [{ name: 'py', root: 'py', runner: ['pytest', { env }] }],
      fixers: [],
      heal,
      reporters: ['json'],
    }),
  );
  const sessions = async (): Promise<number> =>
    (await readFile(log, 'utf8').catch(() => '')).split('\n').filter(Boolean).length;
  return { dir, sessions };
}

interface Outcomes {
  exitCode: number;
  rounds: string[];
  outcomes: Record<string, string>;
}

function outcomesOf(stdout: string): Outcomes {
  const report = JSON.parse(stdout) as {
    exitCode: number;
    projects: Array<{
      rounds: Array<{ kind: string }>;
      failures: Array<{ outcome: string; failure: { tests: string[] } }>;
    }>;
  };
  const p = report.projects[0]!;
  const outcomes: Record<string, string> = {};
  for (const f of p.failures) for (const t of f.failure.tests) outcomes[t.split('::').at(-1)!] = f.outcome;
  return { exitCode: report.exitCode, rounds: p.rounds.map((r) => r.kind), outcomes };
}

describe('suture run --no-heal runs the suite once', () => {
  it('starts pytest once and reports the flaky test as the failure it was', async (t) => {
    requireToolchain(t, { command: 'python3', install: 'apt-get install python3 python3-pytest' });
    const { dir, sessions } = await project();
    const r = await suture(['run', '--no-heal', '--json'], dir);
    expect(r.code, r.stderr).toBe(1);
    expect(await sessions()).toBe(1);
    const o = outcomesOf(r.stdout);
    expect(o.rounds).toEqual(['initial']);
    expect(o.outcomes.test_flaky).not.toBe('flaky');
    expect(o.outcomes.test_broken).toBeDefined();
  });

  it('re-runs the failed tests N times with --retries N, and tells the flaky one apart', async (t) => {
    requireToolchain(t, { command: 'python3', install: 'apt-get install python3 python3-pytest' });
    const { dir, sessions } = await project();
    const r = await suture(['run', '--no-heal', '--retries', '2', '--json'], dir);
    expect(r.code, r.stderr).toBe(1);
    expect(await sessions()).toBe(3);
    const o = outcomesOf(r.stdout);
    expect(o.rounds).toEqual(['initial', 'retry', 'retry']);
    expect(o.outcomes.test_flaky).toBe('flaky');
    expect(o.outcomes.test_broken).not.toBe('flaky');
  });

  it("keeps to one run when the config asks for flaky re-runs: the config's heal settings do not heal", async (t) => {
    requireToolchain(t, { command: 'python3', install: 'apt-get install python3 python3-pytest' });
    const { dir, sessions } = await project({ flakyReruns: 3 });
    const r = await suture(['run', '--no-heal', '--json'], dir);
    expect(r.code, r.stderr).toBe(1);
    expect(await sessions()).toBe(1);
  });

  it('a healing run re-runs as the config says, and --retries 0 turns that off', async (t) => {
    requireToolchain(t, { command: 'python3', install: 'apt-get install python3 python3-pytest' });
    const healing = await project({ flakyReruns: 1 });
    const h = await suture(['run', '--json'], healing.dir);
    expect(h.code, h.stderr).toBe(1);
    const healed = outcomesOf(h.stdout);
    expect(healed.outcomes.test_flaky).toBe('flaky');
    expect(healed.rounds).toEqual(['initial', 'retry']);
    const none = await project({ flakyReruns: 1 });
    const n = await suture(['run', '--retries', '0', '--json'], none.dir);
    expect(n.code, n.stderr).toBe(1);
    const unretried = outcomesOf(n.stdout);
    expect(unretried.outcomes.test_flaky).not.toBe('flaky');
    expect(unretried.rounds).toEqual(['initial']);
    // the scope's trace of a failure may start pytest too: one session fewer, the flaky re-run
    expect(await none.sessions()).toBe((await healing.sessions()) - 1);
  });

  it('refuses a --retries that is not 0 to 5 with exit 2, before any test runs', async () => {
    const { dir, sessions } = await project();
    for (const bad of ['6', '1.5', 'two']) {
      const r = await suture(['run', '--no-heal', '--retries', bad], dir);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`--retries expects an integer from 0 to 5, got "${bad}"`);
    }
    expect(await sessions()).toBe(0);
  });
});
