import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { scriptedFixer } from '@suture/core/testing';
import { afterAll, describe, expect, it } from 'vitest';
import go from '../../src/index.js';
import { cleanup, gate, quiet, repoWith } from './gate-support.js';

const temps: string[] = [];
afterAll(async () => {
  await Promise.all(temps.map((d) => rm(d, { recursive: true, force: true })));
  await cleanup();
});

async function moduleWith(files: Record<string, string>): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'suture-go-unplaced-'));
  temps.push(root);
  await writeFile(join(root, 'go.mod'), 'module example.com/unplaced\n\ngo 1.22\n');
  for (const [file, text] of Object.entries(files)) {
    await mkdir(dirname(join(root, file)), { recursive: true });
    await writeFile(join(root, file), text);
  }
  return root;
}

async function run(root: string) {
  const workDir = await mkdtemp(join(tmpdir(), 'suture-go-unplaced-work-'));
  temps.push(workDir);
  return go().run({ root, timeoutMs: 120_000, signal: new AbortController().signal, logger: quiet, workDir });
}

describe('a Go build that fails without naming a place', () => {
  it('reports an import cycle once, as a failed run with its error, not as a run with nothing in it', async () => {
    const root = await moduleWith({
      'a/a.go': 'package a\n\nimport "example.com/unplaced/b"\n\nfunc A() int { return b.B() }\n',
      'a/a_test.go': 'package a\n\nimport "testing"\n\nfunc TestA(t *testing.T) { _ = A() }\n',
      'b/b.go': 'package b\n\nimport "example.com/unplaced/a"\n\nfunc B() int { return a.A() }\n',
      'ok/ok_test.go': 'package ok\n\nimport "testing"\n\nfunc TestOK(t *testing.T) {}\n',
    });
    const result = await run(root);
    expect(result.status).toBe('failed');
    const cycles = (result.diagnostics ?? []).filter((d) => d.message.includes('import cycle not allowed'));
    expect(cycles).toHaveLength(1);
    expect(cycles[0]).toMatchObject({ source: 'go-build', severity: 'error' });
    expect(cycles[0]!.message).toContain('imports example.com/unplaced/b from a.go');
    // the files of the cycle, each in the folder of the package that imports from it
    expect(cycles[0]!.file).toBe('a/a.go');
    expect((cycles[0]!.notes ?? []).map((n) => n.file)).toEqual(['b/b.go']);
    expect((result.tests ?? []).map((t) => [t.id, t.status])).toEqual([['ok::TestOK', 'passed']]);
  });

  it('reports two packages in one folder, and keeps located errors as they were', async () => {
    const root = await moduleWith({
      'two/one.go': 'package one\n\nfunc One() int { return 1 }\n',
      'two/other.go': 'package other\n\nfunc Other() int { return 2 }\n',
      'two/one_test.go': 'package one\n\nimport "testing"\n\nfunc TestOne(t *testing.T) {}\n',
      'typo/typo.go': 'package typo\n\nfunc T() int { return totl }\n',
      'typo/typo_test.go': 'package typo\n\nimport "testing"\n\nfunc TestT(t *testing.T) { _ = T() }\n',
    });
    const result = await run(root);
    expect(result.status).toBe('failed');
    const messages = (result.diagnostics ?? []).map((d) => [d.file, d.line, d.message]);
    expect(messages).toContainEqual([
      'two/one.go',
      undefined,
      expect.stringMatching(/^found packages one \(one\.go\) and other \(other\.go\) in /),
    ]);
    expect(messages).toContainEqual(['typo/typo.go', 3, 'undefined: totl']);
    expect(messages).toHaveLength(2);
  });

  it('blocks the gate with the cycle as the failure the fixer is asked about', async () => {
    const { repo, root } = await repoWith('cycle');
    const fixer = scriptedFixer([]);
    const report = await gate({
      repo,
      root,
      fixers: [fixer],
      mode: 'check',
      heal: { maxAttempts: 1, flakyReruns: 0 },
    });
    const project = report.projects[0]!;
    expect(project.status).not.toBe('passed');
    expect(report.exitCode).not.toBe(0);
    expect(project.failures.length).toBeGreaterThan(0);
    expect(JSON.stringify(fixer.requests.map((r) => r.failure))).toContain('import cycle not allowed');
    expect(project.failures[0]!.scope?.entries.map((e) => e.file)).toEqual(
      expect.arrayContaining(['a/a.go']),
    );
  });
});
