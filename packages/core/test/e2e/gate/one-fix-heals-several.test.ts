import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { scriptedFixer } from '../../../src/testing/scripted-fixer.js';
import { FIX_ADD, gate, sandbox, type Sandbox } from './support.js';

const boxes: Sandbox[] = [];
afterEach(async () => {
  for (const b of boxes.splice(0)) await rm(b.root, { recursive: true, force: true });
});

async function twoFailuresOneBug(): Promise<Sandbox> {
  const b = await sandbox();
  boxes.push(b);
  // A second test of the same bug, with another message: a failure group of its own.
  await writeFile(
    join(b.root, 'tests/add2.test.mjs'),
    "import assert from 'node:assert/strict';\nimport { add } from '../src/math.mjs';\n\nassert.equal(add(1, 1), 2);\n",
  );
  return b;
}

describe('one fix that heals several failures', () => {
  it('does not ask a fixer about a failure whose tests pass after an earlier heal', async () => {
    const b = await twoFailuresOneBug();
    const fixer = scriptedFixer([FIX_ADD]);
    const report = await gate(b, [fixer], { mode: 'fix', healConfig: { flakyReruns: 0 } });
    const failures = report.projects[0]!.failures.filter((f) =>
      f.failure.tests.some((t) => t.startsWith('tests/add')),
    );
    expect(failures).toHaveLength(2);
    expect(fixer.requests).toHaveLength(1);
    expect(failures.map((f) => f.outcome)).toEqual(['healed', 'healed']);
    expect(failures[1]!.attempts).toEqual([]);
    expect(failures[1]!.reason).toMatch(/^its tests pass after the heal of tests\/add/);
  });

  it('takes that back when the regression run reverts the heal', async () => {
    const b = await twoFailuresOneBug();
    // mul.test.mjs passes at first; this "fix" of add breaks mul, so the regression run reverts it.
    const breaksMul = {
      verdict: 'edits',
      rationale: 'add adds',
      edits: [
        {
          file: 'src/math.mjs',
          search: 'return a - b;\n}\n\nexport function mul(a, b) {\n  return a * b;',
          replace: 'return a + b;\n}\n\nexport function mul(a, b) {\n  return a + b;',
        },
      ],
    } as const;
    const report = await gate(b, [scriptedFixer([breaksMul])], {
      mode: 'fix',
      healConfig: { flakyReruns: 0, maxAttempts: 1 },
    });
    const failures = report.projects[0]!.failures.filter((f) =>
      f.failure.tests.some((t) => t.startsWith('tests/add')),
    );
    expect(failures.map((f) => f.outcome)).toEqual(['reverted', 'reverted']);
    expect(failures[0]!.broke).toEqual(['tests/mul.test.mjs']);
    expect(failures[1]!.broke).toBeUndefined();
    expect(failures[1]!.reason).toMatch(
      /^its tests passed after the heal of tests\/add\.test\.mjs: .*, which was reverted: it broke tests\/mul\.test\.mjs$/,
    );
  });
});
