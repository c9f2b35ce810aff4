import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FixProposalInput } from '../../../src/api/contracts/fix.js';
import { jsonReporter } from '../../../src/reporters/json.js';
import { hasJournal } from '../../../src/safety/journal.js';
import { scriptedFixer } from '../../../src/testing/scripted-fixer.js';
import { gate, hashTree, sandboxes } from './support.js';

const { box } = sandboxes();

async function reportSize(root: string): Promise<number> {
  const runs = join(root, '.suture/runs');
  const [run] = await readdir(runs);
  return (await stat(join(runs, run!, 'report.json'))).size;
}

describe('proposal bounds', () => {
  it('a 5 MB edit is refused before anything is written, and the report keeps its size and hash, not its content', async () => {
    const b = await box();
    const before = await hashTree(b.root);
    const huge = `export function add(a, b) {\n  return a + b;\n}\n// ${'x'.repeat(5 * 1024 * 1024)}\n`;
    const proposal: FixProposalInput = {
      verdict: 'edits',
      rationale: 'make it big',
      edits: [{ file: 'src/math.mjs', content: huge }],
    };
    const report = await gate(b, [scriptedFixer([proposal])], {
      mode: 'fix',
      reporters: [jsonReporter()],
      healConfig: { flakyReruns: 0, maxAttempts: 1 },
    });
    const attempt = report.projects[0]!.failures.flatMap((f) => f.attempts)[0]!;
    expect(attempt.verdict).toBe('refused');
    expect(attempt.reason).toMatch(
      /too large.*1 file\(s\), \d{7} bytes, sha256 [0-9a-f]{64}.*heal\.maxProposalBytes is 2097152/,
    );
    expect(attempt.edits).toEqual([]);
    expect(await reportSize(b.root)).toBeLessThan(200_000);
    expect(await hashTree(b.root)).toEqual(before);
    expect(await hasJournal(b.root)).toBe(false);
  });

  it('a 10,000-file proposal is refused at once against heal.maxFilesPerAttempt, with no journal entry', async () => {
    const b = await box();
    const before = await hashTree(b.root);
    const edits = Array.from({ length: 10_000 }, (_, i) => ({
      file: `src/gen/f${i}.mjs`,
      content: 'export {};\n',
    }));
    const report = await gate(b, [scriptedFixer([{ verdict: 'edits', rationale: 'many', edits }])], {
      mode: 'fix',
      healConfig: { flakyReruns: 0, maxAttempts: 1, allowNewFiles: true, maxFilesPerAttempt: 50 },
    });
    const attempt = report.projects[0]!.failures.flatMap((f) => f.attempts)[0]!;
    expect(attempt.verdict).toBe('refused');
    expect(attempt.reason).toMatch(/10000 edit\(s\) on 10000 file\(s\).*heal\.maxFilesPerAttempt is 50/);
    expect(attempt.edits).toEqual([]);
    expect(await hashTree(b.root)).toEqual(before);
    await expect(readFile(join(b.root, 'src/gen/f0.mjs'))).rejects.toThrow(/ENOENT/);
  });
});
