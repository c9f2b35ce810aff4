import { execFileSync } from 'node:child_process';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, REPO, suture, workspace } from './cli-support.js';

afterAll(cleanup);

const SHOP = join(REPO, 'packages/runner-pytest/test/e2e/shop');
const JEST_BASIC = join(REPO, 'packages/runner-jest/test/e2e/basic');
const JEST_GREEN = join(REPO, 'packages/runner-jest/test/e2e/green');

async function write(dir: string, files: Record<string, string>): Promise<void> {
  for (const [path, text] of Object.entries(files)) {
    await mkdir(join(dir, path, '..'), { recursive: true });
    await writeFile(join(dir, path), text);
  }
}

/** Five real projects: pytest (a healable typo and more in shop, one green, one wrong value) and Jest (red, green). */
async function polyglotRepo(): Promise<string> {
  const dir = await workspace();
  for (const [from, to] of [
    [SHOP, 'shop'],
    [JEST_BASIC, 'web'],
    [JEST_GREEN, 'ui'],
  ] as const) {
    await mkdir(join(dir, to));
    execFileSync('cp', ['-r', `${from}/.`, join(dir, to)]);
  }
  await write(dir, {
    'calc/calc.py': 'def add(a, b):\n    return a + b\n',
    'calc/test_calc.py': 'from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n',
    'rates/rates.py': 'def vat(x):\n    return x * 0.2\n',
    'rates/test_rates.py':
      'from rates import vat\n\n\ndef test_vat():\n    assert vat(10) == 3\n\n\ndef test_zero():\n    assert vat(0) == 0\n',
  });
  const config = {
    projects: [
      { name: 'shop', root: 'shop', runner: ['pytest', { env: { SUTURE_FLAKY_MARKER: '/nonexistent/x' } }] },
      { name: 'calc', root: 'calc', runner: 'pytest' },
      { name: 'web', root: 'web', runner: 'jest' },
      { name: 'rates', root: 'rates', runner: 'pytest' },
      { name: 'ui', root: 'ui', runner: 'jest' },
    ],
    fixers: ['hints'],
    reporters: ['json', 'junit', 'patch'],
  };
  await writeFile(join(dir, 'suture.config.json'), JSON.stringify(config, null, 2));
  return dir;
}

interface Report {
  exitCode: number;
  mode: string;
  patch: string;
  totals: Record<string, number>;
  files: unknown[];
  projects: Array<{
    name: string;
    status: string;
    totals: Record<string, number>;
    rounds: Array<{ kind: string; tests: Array<{ id: string; status: string }> }>;
    failures: Array<{ outcome: string; failure: { fingerprint: string; tests: string[] } }>;
  }>;
}

/** What a run found, without the times and ids that differ between any two runs. */
function essence(r: Report): unknown {
  return {
    exitCode: r.exitCode,
    mode: r.mode,
    patch: r.patch,
    totals: { ...r.totals, costUsd: undefined },
    files: r.files,
    projects: r.projects.map((p) => ({
      name: p.name,
      status: p.status,
      totals: p.totals,
      // a project split by test file ran its flaky triage and validations in each part: the same
      // re-runs, grouped by part
      rounds: p.rounds
        .filter((round) => round.kind !== 'retry')
        .map((round) => ({ kind: round.kind, tests: round.tests.map((t) => `${t.id}=${t.status}`).sort() })),
      retried: p.rounds
        .filter((round) => round.kind === 'retry')
        .flatMap((round) => round.tests.map((t) => `${t.id}=${t.status}`))
        .sort(),
      // the groups of a split project come part by part, and the parts are cut by recorded
      // durations, which differ from run to run: the same groups, in any order
      failures: p.failures
        .map((f) => `${f.failure.fingerprint}:${f.outcome}:${f.failure.tests.join(',')}`)
        .sort(),
    })),
  };
}

function junitCases(xml: string): string[] {
  const doc = new XMLParser({
    ignoreAttributes: false,
    isArray: (n) => ['testsuite', 'testcase'].includes(n),
  }).parse(xml) as { testsuites: { testsuite: Array<{ testcase?: Array<Record<string, unknown>> }> } };
  return doc.testsuites.testsuite
    .flatMap((s) => s.testcase ?? [])
    .map((c) => `${String(c['@_classname'])}#${String(c['@_name'])}:${'failure' in c ? 'failed' : 'ok'}`)
    .sort();
}

async function runDirs(dir: string): Promise<string[]> {
  return (await readdir(join(dir, '.suture/runs'))).sort();
}

describe('suture run --shard i/n and suture merge on real pytest and Jest projects', () => {
  it('shards 1/4 to 4/4 gate every project exactly once, and their merge equals one full run', async () => {
    const dir = await polyglotRepo();
    const full = await suture(['run'], dir);
    expect(full.code).toBe(1);
    const [fullRun] = await runDirs(dir);
    const fullReport = JSON.parse(
      await readFile(join(dir, '.suture/runs', fullRun!, 'report.json'), 'utf8'),
    ) as Report;
    expect(fullReport.projects.map((p) => p.name)).toEqual(['shop', 'calc', 'web', 'rates', 'ui']);
    expect(fullReport.patch).toContain('diff --git a/shop/');

    const shardRuns: string[] = [];
    for (let i = 1; i <= 4; i++) {
      const before = new Set(await runDirs(dir));
      const r = await suture(['run', '--shard', `${i}/4`], dir, { SUTURE_LOG: 'info' });
      expect(r.stderr).toMatch(new RegExp(`shard ${i}/4: .*\\(durations from .*${fullRun}/report\\.json\\)`));
      const added = (await runDirs(dir)).filter((d) => !before.has(d));
      expect(added).toEqual([expect.stringMatching(new RegExp(`-shard${i}of4$`))]);
      shardRuns.push(join(dir, '.suture/runs', added[0]!));
    }
    const gated = await Promise.all(
      shardRuns.map(
        async (run) => (JSON.parse(await readFile(join(run, 'report.json'), 'utf8')) as Report).projects,
      ),
    );
    const names = gated.flatMap((ps) => ps.map((p) => p.name));
    expect([...new Set(names)].sort()).toEqual(['calc', 'rates', 'shop', 'ui', 'web']);
    expect(gated.every((ps) => ps.length >= 1)).toBe(true);
    // a project in more than one shard was split by test file: its parts ran different tests
    for (const name of new Set(names)) {
      const ran = gated.flatMap((ps) => ps.filter((p) => p.name === name)).flatMap((p) => p.rounds[0]!.tests);
      expect(new Set(ran.map((t) => t.id)).size).toBe(ran.length);
    }

    const out = join(dir, 'merged');
    const merged = await suture(['merge', ...shardRuns, '--out', out], dir);
    expect(merged.stderr).toContain(`merged 4 run(s), 5 project(s) into ${out}`);
    expect(merged.code).toBe(fullReport.exitCode);
    const mergedReport = JSON.parse(await readFile(join(out, 'report.json'), 'utf8')) as Report;
    expect(essence(mergedReport)).toEqual(essence(fullReport));
    expect(await readFile(join(out, 'fixes.patch'), 'utf8')).toBe(fullReport.patch);
    const fullXml = await readFile(join(dir, '.suture/runs', fullRun!, 'results.xml'), 'utf8');
    expect(junitCases(await readFile(join(out, 'results.xml'), 'utf8'))).toEqual(junitCases(fullXml));
    expect(junitCases(fullXml).some((c) => c.endsWith(':failed'))).toBe(true);
    expect((await readFile(join(out, 'summary.md'), 'utf8')).length).toBeGreaterThan(0);
  }, 600_000);

  it('refuses to merge two runs of one project, and a bad --shard, with exit 2 and what to do', async () => {
    const dir = await polyglotRepo();
    expect((await suture(['run', 'calc'], dir)).code).toBe(0);
    expect((await suture(['run', 'calc', 'ui'], dir)).code).toBe(0);
    const runs = (await runDirs(dir)).map((d) => join(dir, '.suture/runs', d));
    const r = await suture(['merge', ...runs], dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`project "calc" is in both ${runs[0]} and ${runs[1]}`);
    const bad = await suture(['run', '--shard', '5/4'], dir);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--shard expects i/n with 1 <= i <= n (e.g. --shard 2/4), got "5/4"');
  });
});
