import { execFileSync } from 'node:child_process';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, describe, expect, it } from 'vitest';
import { requireToolchain } from '@suture/core/testing';
import { cleanup, suture, workspace } from './cli-support.js';
import { schemaErrors } from './junit-readers.js';

afterAll(cleanup);

// test_flaky fails its first two runs (a counter file outside the tree), then passes; test_broken
// always fails; test_ok passes.
const TESTS = `import os, pathlib

COUNTER = pathlib.Path(os.environ["FLAKY_COUNTER"])


def test_ok():
    assert 1 + 1 == 2


def test_flaky():
    runs = int(COUNTER.read_text()) if COUNTER.exists() else 0
    COUNTER.write_text(str(runs + 1))
    assert runs >= 2, f"run {runs + 1} fails"


def test_broken():
    assert 2 + 2 == 5, "always fails"
`;

type Case = Record<string, unknown> & { '@_name': string };

describe('JUnit attempts of re-run tests, as Maven Surefire writes them', () => {
  it('writes a flaky test as passed with a flakyFailure per failed run, and a broken one with a rerunFailure per failed re-run', async (t) => {
    requireToolchain(t, { command: 'xmllint', install: 'apt-get install libxml2-utils' });
    const dir = await workspace();
    await mkdir(join(dir, 'py/tests'), { recursive: true });
    await writeFile(join(dir, 'py/tests/test_attempts.py'), TESTS);
    await writeFile(
      join(dir, 'suture.config.json'),
      JSON.stringify({
        projects: [
          {
            name: 'py',
            root: 'py',
            runner: ['pytest', { env: { FLAKY_COUNTER: join(dir, 'counter') } }],
          },
        ],
        fixers: [],
      }),
    );
    execFileSync('sh', ['-c', 'printf ".suture/\\ncounter\\n" > .gitignore && git init -q && git add -A'], {
      cwd: dir,
    });
    execFileSync('git', ['-c', 'user.email=t@e', '-c', 'user.name=t', 'commit', '-qm', 'x'], { cwd: dir });

    const r = await suture(['run', '--no-heal', '--retries', '2'], dir);
    expect(r.code).toBe(1);
    const [run] = await readdir(join(dir, '.suture/runs'));
    const runDir = join(dir, '.suture/runs', run!);
    const xmlFile = join(runDir, 'results.xml');
    expect(schemaErrors(xmlFile)).toBe('');
    const doc = new XMLParser({
      ignoreAttributes: false,
      isArray: (name) => ['testsuite', 'testcase', 'flakyFailure', 'rerunFailure'].includes(name),
    }).parse(await readFile(xmlFile, 'utf8'));
    const cases = doc.testsuites.testsuite[0].testcase as Case[];
    const byName = (name: string): Case => cases.find((c) => c['@_name'].endsWith(`::${name}`))!;

    // passed on its third run: no failure, and its two failed runs in order
    const flaky = byName('test_flaky');
    expect(flaky.failure).toBeUndefined();
    expect(flaky.rerunFailure).toBeUndefined();
    const attempts = flaky.flakyFailure as Array<Record<string, string>>;
    expect(attempts.map((a) => a['@_message'])).toEqual([
      expect.stringContaining('run 1 fails'),
      expect.stringContaining('run 2 fails'),
    ]);
    expect(attempts.every((a) => a['@_type'] === 'failure' && /run \d fails/.test(a.stackTrace!))).toBe(true);

    // failed each time: its failure, and a rerunFailure for each of the two re-runs
    const broken = byName('test_broken');
    expect(broken.failure).toBeDefined();
    expect(broken.flakyFailure).toBeUndefined();
    expect((broken.rerunFailure as unknown[]).length).toBe(2);

    // a test that was never re-run has neither
    const ok = byName('test_ok');
    expect(Object.keys(ok).filter((k) => /flaky|rerun|failure/.test(k))).toEqual([]);
    expect(doc.testsuites.testsuite[0]['@_failures']).toBe('1');

    // every attempt stays in report.json: the first run and each re-run, the re-runs marked
    const report = JSON.parse(await readFile(join(runDir, 'report.json'), 'utf8')) as {
      projects: Array<{
        rounds: Array<{ kind: string; purpose?: string; tests: Array<{ id: string; status: string }> }>;
      }>;
    };
    const statusOf = (id: string): string[] =>
      report.projects[0]!.rounds.flatMap((round) =>
        round.tests
          .filter((x) => x.id.endsWith(`::${id}`))
          .map((x) => `${round.purpose ?? round.kind}:${x.status}`),
      );
    expect(statusOf('test_flaky')).toEqual(['initial:failed', 'flaky-triage:failed', 'flaky-triage:passed']);
    expect(statusOf('test_broken')).toEqual(['initial:failed', 'flaky-triage:failed', 'flaky-triage:failed']);
  });
});
