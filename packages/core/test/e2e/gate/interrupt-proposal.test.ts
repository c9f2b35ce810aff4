import { rm } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import type { FixProposalInput } from '../../../src/api/contracts/fix.js';
import type { Analyzer, Runner } from '../../../src/api/plugin.js';
import { hasJournal } from '../../../src/safety/journal.js';
import { requireIsolation } from '../../../src/safety/workspace/isolation.test-support.js';
import type { WorkspaceChoice } from '../../../src/safety/workspace/types.js';
import { scriptAnalyzer, scriptRunner, scriptedFixer } from '../../../src/testing/index.js';
import { FIX_ADD, gate, hashTree, project, sandbox, type Sandbox } from './support.js';

// Ctrl-C while a proposal of many files is checked and written: each file costs a write (and in a
// view a request to its holder), so the gate must stop between files, not after the last one.
const boxes: Sandbox[] = [];
afterEach(async () => {
  for (const b of boxes.splice(0)) await rm(b.root, { recursive: true, force: true });
});

const FILES = 200;
const MANY: FixProposalInput = {
  verdict: 'edits',
  rationale: 'add must add, and a module per case',
  edits: [
    ...FIX_ADD.edits,
    ...Array.from({ length: FILES }, (_, i) => ({
      file: `src/gen/m${i}.mjs`,
      content: `export const v = ${i};\n`,
    })),
  ],
};

describe.each<WorkspaceChoice>(['in-place', 'overlay'])(
  'an interrupted proposal of many files (%s)',
  (workspace) => {
    it('is not written once the run is stopped: the attempt says so, no validation run starts, the tree is as it was', async (t) => {
      if (workspace === 'overlay') await requireIsolation(t, { overlay: true });
      const b = await sandbox();
      boxes.push(b);
      const before = await hashTree(b.root);
      const controller = new AbortController();
      // The signal arrives while the gate checks the proposal's files (the policy asks the analyzer
      // of each one; only the proposal has files under src/gen), before any of them is written.
      const inner = scriptAnalyzer();
      const analyzer: Analyzer = {
        ...inner,
        isTestFile(file) {
          if (file.startsWith('src/gen/')) controller.abort();
          return file.startsWith('tests/');
        },
      };
      let runs = 0;
      const runner: Runner = scriptRunner();
      const counting: Runner = { ...runner, run: (ctx) => (runs++, runner.run(ctx)) };
      const report = await gate(b, [scriptedFixer([MANY])], {
        mode: 'fix',
        signal: controller.signal,
        workspace,
        projects: [
          project(b.root, {
            runner: counting,
            analyzer,
            healConfig: { allowNewFiles: true, flakyReruns: 0, maxFilesPerAttempt: FILES + 1 },
          }),
        ],
      });
      expect(report).toMatchObject({ cancelled: true, exitCode: 130 });
      const attempts = report.projects[0]!.failures.flatMap((f) => f.attempts);
      expect(attempts.map((a) => [a.verdict, a.reason])).toEqual([
        ['refused', 'the run was interrupted before the proposal was checked and written'],
      ]);
      expect(runs).toBe(1);
      expect(await hashTree(b.root)).toEqual(before);
      expect(await hasJournal(b.root)).toBe(false);
    });
  },
);
