import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Edit } from '@suture/core';
import { scriptedFixer } from '@suture/core/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { gate } from './gate-support.js';
import { cleanup, copy } from './support.js';

afterAll(cleanup);

const SOURCE = 'src/calc.js';
const ADDS = '__tests__/calc.test.js::calc adds';

/** A proposal for every attempt, as a fixer that insists would send it. */
async function proposing(edits: Edit[]) {
  const root = await copy('weakening');
  const before = await readFile(join(root, SOURCE), 'utf8');
  const fixer = scriptedFixer(Array(3).fill({ verdict: 'edits', rationale: 'make it green', edits }));
  const report = await gate({ root, mode: 'fix', fixers: [fixer], heal: { maxAttempts: 1 } });
  const adds = report.projects[0]!.failures.find((f) => f.failure.tests.includes(ADDS));
  return { root, before, report, adds };
}

describe('proposals that make JS code under test report its own success, through the gate on a real Jest project', () => {
  it.each([
    [
      'global.expect replaced by one that never fails',
      [
        {
          file: SOURCE,
          search: 'function add(a, b) {',
          replace: 'global.expect = () => ({ toBe() {} });\n\nfunction add(a, b) {',
        },
      ],
      /^tampering edit to src\/calc\.js: line 1 adds `global\.expect = \(\) => \(\{ toBe\(\) \{\} \}\)`, a test global replaced or changed/,
    ],
    [
      'a process.exit(0) in add',
      [{ file: SOURCE, search: '  return a - b;', replace: '  process.exit(0);' }],
      /^tampering edit to src\/calc\.js: line 2 adds process\.exit\(\), which ends the test process/,
    ],
  ] as const)(
    'refuses %s with the reason; the source stays as it was and the gate exits 1',
    async (_name, edits, reason) => {
      const { root, before, report, adds } = await proposing([...edits]);
      expect(report.exitCode).toBe(1);
      expect(report.projects[0]!.status).not.toBe('recovered');
      expect(adds?.outcome).not.toBe('healed');
      expect(adds!.attempts[0]).toMatchObject({ verdict: 'refused', reason: expect.stringMatching(reason) });
      expect(await readFile(join(root, SOURCE), 'utf8')).toBe(before);
    },
  );
});
