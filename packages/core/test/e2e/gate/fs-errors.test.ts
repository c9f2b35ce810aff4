import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { FixProposalInput } from '../../../src/api/contracts/fix.js';
import { runGate } from '../../../src/engine/gate.js';
import { hasJournal } from '../../../src/safety/journal.js';
import { requireIsolation } from '../../../src/safety/workspace/isolation.test-support.js';
import type { WorkspaceChoice } from '../../../src/safety/workspace/types.js';
import { silentLogger, scriptedFixer } from '../../../src/testing/index.js';
import { FIX_ADD, FIXTURE, hashTree, project } from './support.js';

// Proposals that would meet a filesystem error other than containment.test's ENOTDIR: each is that
// attempt's refusal with the path and the reason, and the gate goes on to the next proposal and a
// complete report, in the journaled tree and in the overlay alike.
const roots: string[] = [];
afterEach(async () => {
  for (const r of roots.splice(0)) await rm(r, { recursive: true, force: true });
});

const CASES: { code: string; reason: RegExp; proposal: FixProposalInput }[] = [
  {
    code: 'ENAMETOOLONG',
    reason: /src\/n{300}\.mjs: ENAMETOOLONG \(the file name is too long\)/,
    proposal: {
      verdict: 'edits',
      rationale: 'a name longer than any file system takes',
      edits: [{ file: `src/${'n'.repeat(300)}.mjs`, content: 'export const x = 1;\n' }],
    },
  },
  {
    // Caught before the write would fail with EISDIR.
    code: 'EISDIR',
    reason: /src is not a regular file/,
    proposal: {
      verdict: 'edits',
      rationale: 'a folder written as a file',
      edits: [{ file: 'src', content: 'export const x = 1;\n' }],
    },
  },
];

describe.each<WorkspaceChoice>(['in-place', 'overlay'])(
  'a filesystem error in a proposal (%s)',
  (workspace) => {
    it.for(CASES)(
      '$code refuses that attempt with the reason; the next proposal heals; check mode writes nothing',
      async ({ reason, proposal }, t) => {
        if (workspace === 'overlay') await requireIsolation(t, { overlay: true });
        const root = await mkdtemp(join(tmpdir(), 'suture-fs-error-'));
        roots.push(root);
        await cp(FIXTURE, root, { recursive: true });
        const before = await hashTree(root);
        const report = await runGate({
          root,
          outputDir: join(root, '.suture', 'runs'),
          mode: 'check',
          projects: [project(root, { healConfig: { allowNewFiles: true, flakyReruns: 0 } })],
          fixers: [scriptedFixer([proposal, FIX_ADD as unknown as FixProposalInput])],
          reporters: [],
          concurrency: 1,
          logger: silentLogger,
          workspace,
        });
        expect(report.error).toBeUndefined();
        const add = report.projects[0]!.failures.find((f) => f.failure.tests.includes('tests/add.test.mjs'))!;
        expect(add.attempts[0]!.verdict).toBe('refused');
        expect(add.attempts[0]!.reason, add.attempts[0]!.reason).toMatch(reason);
        expect(add.outcome).toBe('healed');
        expect(await hashTree(root)).toEqual(before);
        expect(await hasJournal(root)).toBe(false);
      },
    );
  },
);
