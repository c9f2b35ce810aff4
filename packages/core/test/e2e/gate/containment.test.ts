import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { FixProposalInput, FixRequest } from '../../../src/api/contracts/fix.js';
import { API_VERSION, type Fixer, type Logger } from '../../../src/api/plugin.js';
import { runGate } from '../../../src/engine/gate.js';
import { hasJournal } from '../../../src/safety/journal.js';
import { FIX_ADD, FIXTURE, hashTree, project } from './support.js';

const roots: string[] = [];
afterEach(async () => {
  for (const r of roots.splice(0)) await rm(r, { recursive: true, force: true });
});

const quiet: Logger = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** A repository with two copies of the calc project, `a` and `b`. */
async function twoProjects(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'suture-contain-'));
  roots.push(root);
  await cp(FIXTURE, join(root, 'a'), { recursive: true });
  await cp(FIXTURE, join(root, 'b'), { recursive: true });
  return root;
}

/** Answers project `a` with `forA`; project `b` with the right fix, late, so `a` goes wrong first. */
function fixer(forA: FixProposalInput): Fixer {
  return {
    name: 'two-faced',
    apiVersion: API_VERSION,
    async propose(request: FixRequest): Promise<FixProposalInput> {
      if (request.project.name === 'a') return forA;
      await sleep(1500);
      return FIX_ADD as unknown as FixProposalInput;
    },
  };
}

function gateBoth(
  root: string,
  fx: Fixer,
  mode: 'check' | 'fix',
  runId?: string,
): ReturnType<typeof runGate> {
  return runGate({
    root,
    outputDir: join(root, '.suture', 'runs'),
    mode,
    projects: [
      project(join(root, 'a'), { name: 'a', healConfig: { allowNewFiles: true, flakyReruns: 0 } }),
      project(join(root, 'b'), { name: 'b', healConfig: { flakyReruns: 0 } }),
    ],
    fixers: [fx],
    reporters: [],
    concurrency: 2,
    logger: quiet,
    ...(runId ? { runId } : {}),
  });
}

const addOf = (report: Awaited<ReturnType<typeof runGate>>, name: string) =>
  report.projects
    .find((p) => p.name === name)!
    .failures.find((f) => f.failure.tests.includes('tests/add.test.mjs'))!;

describe('an error in one project stays in that project', () => {
  it('a proposal for a path below a file (ENOTDIR) is a refused attempt with the reason; the other project heals; check mode leaves the tree and no journal', async () => {
    const root = await twoProjects();
    const before = await hashTree(root);
    const report = await gateBoth(
      root,
      fixer({ verdict: 'edits', rationale: 'r', edits: [{ file: 'src/math.mjs/x.mjs', content: 'x\n' }] }),
      'check',
    );
    expect(report.error).toBeUndefined();
    expect(report.exitCode).toBe(1);
    const attemptsA = report.projects.find((p) => p.name === 'a')!.failures.flatMap((f) => f.attempts);
    expect(attemptsA.length).toBeGreaterThan(0);
    const refused = attemptsA.filter((a) => a.verdict === 'refused');
    expect(refused.length).toBeGreaterThan(0);
    for (const a of refused) expect(a.reason).toMatch(/src\/math\.mjs\/x\.mjs: ENOTDIR/);
    // the same proposal again is not tried again
    for (const a of attemptsA) expect(['refused', 'repeated-patch', 'repeated-request']).toContain(a.verdict);
    expect(addOf(report, 'b').outcome).toBe('healed');
    expect(await hashTree(root)).toEqual(before);
    expect(await hasJournal(root)).toBe(false);
  });

  it('a project whose gate throws (its run folder unwritable) fails with the reason; the other finishes before the lock goes and nothing is written after', async () => {
    const root = await twoProjects();
    const before = await hashTree(root);
    const runId = 'contained-run';
    // A file where project a's scratch folder must go: every run of `a` fails with ENOTDIR.
    await mkdir(join(root, '.suture/runs', runId, 'work'), { recursive: true });
    await writeFile(join(root, '.suture/runs', runId, 'work/a'), 'in the way\n');
    const report = await gateBoth(root, fixer(FIX_ADD as unknown as FixProposalInput), 'fix', runId);
    expect(report.error).toBeUndefined();
    const a = report.projects.find((p) => p.name === 'a')!;
    expect(a.status).toBe('failed');
    expect(a.error).toMatch(/ENOTDIR/);
    const b = report.projects.find((p) => p.name === 'b')!;
    expect(b.status).toBe('healed');
    const healed = await hashTree(root);
    expect(await readFile(join(root, 'b/src/math.mjs'), 'utf8')).toContain('return a + b;');
    expect(healed['a/src/math.mjs']).toBe(before['a/src/math.mjs']);
    expect(await hasJournal(root)).toBe(false);
    // nothing is still running that could write once the gate has returned
    await sleep(2500);
    expect(await hashTree(root)).toEqual(healed);
  });
});
