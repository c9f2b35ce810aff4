import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, suture, workspace } from './cli-support.js';

afterAll(cleanup);

async function write(dir: string, files: Record<string, string>): Promise<void> {
  for (const [path, text] of Object.entries(files)) {
    await mkdir(join(dir, path, '..'), { recursive: true });
    await writeFile(join(dir, path), text);
  }
}

const slow = (name: string, seconds: number, body = 'assert total([1, 2]) == 3'): string =>
  `import time\n\nfrom calc import label, total\n\n\ndef test_${name}():\n    time.sleep(${seconds})\n    ${body}\n`;
const slowJs = (name: string, ms: number): string =>
  `const { double } = require('../src/double');\n\ntest('${name}', async () => {\n  await new Promise((resolve) => setTimeout(resolve, ${ms}));\n  expect(double(2)).toBe(4);\n});\n`;

const PYTEST = {
  'big/calc.py':
    'def total(xs):\n    return sum(xs)\n\n\ndef label(xs):\n    return f"{len(xs)} items: {totl(xs)}"\n',
  'big/test_a.py': slow('a', 1.2),
  'big/test_b.py': slow('b', 0.9, 'assert label([1, 2]) == "2 items: 3"'),
  'big/test_c.py': slow('c', 0.6),
  'big/test_d.py': slow('d', 0.3),
};
const JEST = {
  'big/package.json': JSON.stringify({ name: 'web', private: true }),
  'big/src/double.js': 'module.exports = { double: (x) => x * 2 };\n',
  'big/__tests__/one.test.js': slowJs('one', 1500),
  'big/__tests__/two.test.js': slowJs('two', 1000),
  'big/__tests__/three.test.js': slowJs('three', 500),
};

/**
 * big (pytest: four test files, a NameError in one that the hints fixer heals; or Jest: three test
 * files), which takes longer than a shard's share, and small, which does not.
 */
async function repo(runner: 'pytest' | 'jest'): Promise<string> {
  const dir = await workspace();
  await write(dir, {
    ...(runner === 'pytest' ? PYTEST : JEST),
    'small/test_small.py': 'def test_small():\n    assert 1 + 1 == 2\n',
  });
  const config = {
    projects: [
      { name: 'big', root: 'big', runner },
      { name: 'small', root: 'small', runner: 'pytest' },
    ],
    fixers: ['hints'],
    reporters: ['json', 'junit', 'patch'],
  };
  await writeFile(join(dir, 'suture.config.json'), JSON.stringify(config, null, 2));
  return dir;
}

interface Report {
  exitCode: number;
  patch: string;
  totals: Record<string, number>;
  projects: Array<{
    name: string;
    status: string;
    totals: Record<string, number>;
    rounds: Array<{ kind: string; tests: Array<{ id: string; status: string }> }>;
    failures: Array<{ outcome: string; failure: { fingerprint: string; tests: string[] } }>;
  }>;
}

const read = async (run: string): Promise<Report> =>
  JSON.parse(await readFile(join(run, 'report.json'), 'utf8')) as Report;

const ids = (round: { tests: Array<{ id: string; status: string }> } | undefined): string[] =>
  (round?.tests ?? []).map((t) => `${t.id}=${t.status}`).sort();

/** What a run found, without the times, ids and order of the runs that differ between any two. */
function essence(r: Report): unknown {
  return {
    exitCode: r.exitCode,
    patch: r.patch,
    totals: { ...r.totals, costUsd: undefined },
    projects: r.projects.map((p) => ({
      name: p.name,
      status: p.status,
      totals: p.totals,
      initial: ids(p.rounds.find((x) => x.kind === 'initial')),
      final: ids(p.rounds.filter((x) => x.kind === 'initial' || x.kind === 'regression').at(-1)),
      failures: p.failures
        .map((f) => `${f.failure.fingerprint}:${f.outcome}:${f.failure.tests.join(',')}`)
        .sort(),
    })),
  };
}

async function shards(dir: string, n: number): Promise<{ runs: string[]; logs: string[] }> {
  const runs: string[] = [];
  const logs: string[] = [];
  for (let i = 1; i <= n; i++) {
    const before = new Set(await readdir(join(dir, '.suture/runs')));
    const r = await suture(['run', '--shard', `${i}/${n}`], dir, { SUTURE_LOG: 'info' });
    logs.push(/shard \d+\/\d+: .*/.exec(r.stderr)?.[0] ?? r.stderr);
    const added = (await readdir(join(dir, '.suture/runs'))).filter((d) => !before.has(d));
    expect(added, r.stderr.slice(-2000)).toHaveLength(1);
    runs.push(join(dir, '.suture/runs', added[0]!));
  }
  return { runs, logs };
}

describe('suture run --shard splits a large pytest or Jest project by test file', () => {
  it.each([
    ['pytest', 3],
    ['jest', 2],
  ] as const)(
    'with %s, runs each test file of the split project in one shard of %i, and the merge equals one full run',
    async (runner, n) => {
      const dir = await repo(runner);
      const full = await suture(['run'], dir);
      const [fullRun] = await readdir(join(dir, '.suture/runs'));
      const fullReport = await read(join(dir, '.suture/runs', fullRun!));
      expect(full.code).toBe(fullReport.exitCode);
      if (runner === 'pytest')
        expect(fullReport.patch).toContain('+    return f"{len(xs)} items: {total(xs)}"');

      const { runs, logs } = await shards(dir, n);
      const parts = await Promise.all(runs.map(read));
      // big is in more than one shard, each running its own files; small is in one
      const held = parts.flatMap((r) => r.projects.filter((p) => p.name === 'big'));
      expect(held.length).toBeGreaterThan(1);
      const files = held.flatMap((p) => [...new Set(p.rounds[0]!.tests.map((t) => t.id.split('::')[0]))]);
      expect(new Set(files).size).toBe(files.length);
      expect(logs.join('\n')).toMatch(/big \(/);
      expect(
        parts.flatMap((r) => r.projects.filter((p) => p.name === 'small')),
        logs.join('\n'),
      ).toHaveLength(1);

      const out = join(dir, 'merged');
      const merged = await suture(['merge', ...runs, '--out', out], dir);
      expect(merged.code).toBe(fullReport.exitCode);
      const mergedReport = await read(out);
      expect(essence(mergedReport)).toEqual(essence(fullReport));
      expect(await readFile(join(out, 'fixes.patch'), 'utf8')).toBe(fullReport.patch);
    },
  );

  it('runs a test file newer than the durations once, in the part that runs the rest', async () => {
    const dir = await repo('pytest');
    expect((await suture(['run'], dir)).code).toBe(1);
    await write(dir, { 'big/test_e.py': slow('e', 0.1) });
    const { runs } = await shards(dir, 3);
    const big = (await Promise.all(runs.map(read))).flatMap((r) =>
      r.projects.filter((p) => p.name === 'big'),
    );
    const ran = big.flatMap((p) => p.rounds[0]!.tests.map((t) => t.id));
    expect(ran.filter((id) => id === 'test_e.py::test_e')).toHaveLength(1);
    expect(ran.sort()).toEqual([
      'test_a.py::test_a',
      'test_b.py::test_b',
      'test_c.py::test_c',
      'test_d.py::test_d',
      'test_e.py::test_e',
    ]);
    const out = join(dir, 'merged');
    expect((await suture(['merge', ...runs, '--out', out], dir)).code).toBe(1);
    expect((await read(out)).projects.find((p) => p.name === 'big')!.totals.tests).toBe(5);
  });
});
