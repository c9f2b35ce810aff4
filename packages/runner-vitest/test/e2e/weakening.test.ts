import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Edit } from '@suture/core';
import { scriptedFixer } from '@suture/core/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { gate } from './gate-support.js';
import { cleanup, copy } from './support.js';

afterAll(cleanup);

const TEST = '__tests__/calc.test.ts';
const ADDS = `${TEST}::calc > adds`;

async function proposing(edits: Edit[], heal: { allowTestWeakening?: boolean } = {}) {
  const root = await copy('weakening');
  const before = await readFile(join(root, TEST), 'utf8');
  const fixer = scriptedFixer(Array(3).fill({ verdict: 'edits', rationale: 'make it green', edits }));
  const report = await gate({ root, mode: 'fix', fixers: [fixer], heal: { maxAttempts: 1, ...heal } });
  const adds = report.projects[0]!.failures.find((f) => f.failure.tests.includes(ADDS));
  return { root, before, report, adds };
}

describe('weakening proposals through the gate on a real Vitest project', () => {
  it.each([
    [
      'an it.skip on the failing test',
      [{ file: TEST, search: "  it('adds', () => {", replace: "  it.skip('adds', () => {" }],
      /calc > adds/,
    ],
    [
      'an it.fails on the failing test (Vitest then passes it for failing)',
      [{ file: TEST, search: "  it('adds', () => {", replace: "  it.fails('adds', () => {" }],
      /calc > adds/,
    ],
    [
      'expect(...) rewritten to expect(true).toBe(true)',
      [{ file: TEST, search: 'expect(total).toBe(5);', replace: 'expect(true).toBe(true);' }],
      /in calc > adds, `expect\(total\)\.toBe\(5\)` became a constant that cannot fail/,
    ],
    [
      'vi.mock of the module under test',
      [
        {
          file: TEST,
          search: "import { add, double } from '../src/calc';",
          replace:
            "import { vi } from 'vitest';\nimport { add, double } from '../src/calc';\nvi.mock('../src/calc', () => ({ add: () => 5, double: (n: number) => n * 2 }));",
        },
      ],
      /mocks the code under test \(`vi\.mock\('\.\.\/src\/calc'/,
    ],
  ] as const)(
    'refuses %s with the reason; the test stays as it was and the gate exits 1',
    async (_name, edits, reason) => {
      const { root, before, report, adds } = await proposing([...edits]);
      expect(report.exitCode).toBe(1);
      expect(adds?.outcome).not.toBe('healed');
      expect(adds!.attempts[0]).toMatchObject({ verdict: 'refused', reason: expect.stringMatching(reason) });
      expect(adds!.attempts[0]!.reason).toMatch(/^test-weakening edit to __tests__\/calc\.test\.ts: /);
      expect(await readFile(join(root, TEST), 'utf8')).toBe(before);
    },
  );

  it('refuses code under test that replaces the global expect (tampering), and keeps the source', async () => {
    const { root, report, adds } = await proposing([
      {
        file: 'src/calc.ts',
        search: '  return a - b;',
        replace: '  (globalThis as any).expect = () => ({ toBe: () => undefined });\n  return a - b;',
      },
    ]);
    expect(report.exitCode).toBe(1);
    expect(adds!.attempts[0]!.verdict).toBe('refused');
    expect(adds!.attempts[0]!.reason).toMatch(/src\/calc\.ts/);
    expect(await readFile(join(root, 'src/calc.ts'), 'utf8')).not.toContain('globalThis');
  });

  it('does not take a process.exit(0) in the code under test, let past the guard, for a pass', async () => {
    const { root, report, adds } = await proposing(
      [{ file: 'src/calc.ts', search: '  return a - b;', replace: '  process.exit(0);' }],
      { allowTestWeakening: true },
    );
    expect(report.exitCode).toBe(1);
    expect(adds!.attempts[0]).toMatchObject({ verdict: 'failed-validation', validation: { passed: false } });
    expect(await readFile(join(root, 'src/calc.ts'), 'utf8')).toContain('return a - b;');
  });

  it('heals with the right fix to the code under test, and takes a changed expected value, flagged', async () => {
    const fixed = await proposing([
      { file: 'src/calc.ts', search: 'return a - b;', replace: 'return a + b;' },
    ]);
    expect(fixed.adds).toMatchObject({ outcome: 'healed' });
    expect(fixed.report.exitCode).toBe(0);
    expect(await readFile(join(fixed.root, 'src/calc.ts'), 'utf8')).toContain('return a + b;');
    const changed = await proposing([
      { file: TEST, search: 'expect(total).toBe(5);', replace: 'expect(total).toBe(-1);' },
    ]);
    expect(changed.adds).toMatchObject({ outcome: 'healed' });
    expect(changed.adds!.attempts[0]!.expectationChanged).toBe(true);
  });
});
