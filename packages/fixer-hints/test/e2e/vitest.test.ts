import { cp, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { GateReport } from '@suture/core';
import vitest from '@suture/runner-vitest';
import { afterAll, describe, expect, it } from 'vitest';
import { gateWithHints } from './gate-support.js';

/** Copies live under the repository, so that `vitest` resolves from its node_modules. */
const TMP = fileURLToPath(new URL('../../../../.tmp/', import.meta.url));
const temps: string[] = [];
afterAll(() => Promise.all(temps.map((d) => rm(d, { recursive: true, force: true }))));

/** The gate in fix mode with the hints fixer alone over a copy of a real Vitest project. */
async function heal(name: string): Promise<{ root: string; report: GateReport }> {
  await mkdir(TMP, { recursive: true });
  const root = await mkdtemp(join(TMP, `hints-vitest-${name}-`));
  temps.push(root);
  await cp(fileURLToPath(new URL(`../fixtures/vitest/${name}`, import.meta.url)), root, { recursive: true });
  return { root, report: await gateWithHints(root, name, vitest(), 120_000) };
}

describe('JavaScript/TypeScript hints healing a real Vitest project through the gate', () => {
  it('heals a misspelled name, validated by re-running the failed test with Vitest', async () => {
    const { root, report } = await heal('misspelled');
    const [failure] = report.projects[0]!.failures;
    expect(failure!.failure).toMatchObject({
      kind: 'exception',
      title: expect.stringMatching(/ReferenceError: subtotl is not defined/),
      tests: ['__tests__/cart.test.ts::cart > adds shipping to the lines'],
      location: { file: 'src/cart.ts', line: 13 },
    });
    expect(failure!.outcome).toBe('healed');
    expect(failure!.attempts[0]).toMatchObject({
      fixer: '@suture/fixer-hints',
      verdict: 'healed',
      validation: { passed: true },
    });
    expect(await readFile(join(root, 'src/cart.ts'), 'utf8')).toContain('return subtotal(lines) + shipping;');
    expect(report.projects[0]!.status).toBe('healed');
    expect(report.exitCode).toBe(0);
  });

  it('heals a missing import with the import TypeScript writes, from the module that exports the name', async () => {
    const { root, report } = await heal('missing-import');
    const [failure] = report.projects[0]!.failures;
    expect(failure!.failure.title).toMatch(/ReferenceError: formatPrice is not defined/);
    expect(failure!.outcome).toBe('healed');
    expect(failure!.attempts[0]).toMatchObject({
      fixer: '@suture/fixer-hints',
      rationale: 'TypeScript code fix: Add import from "./format"',
      validation: { passed: true },
    });
    expect(await readFile(join(root, 'src/receipt.ts'), 'utf8')).toMatch(
      /^import \{ formatPrice \} from ["']\.\/format["'];\n/,
    );
    expect(report.exitCode).toBe(0);
  });

  it('does not guess between two equally close names: the failure goes on with the candidates, the source stays', async () => {
    const { root, report } = await heal('tie');
    const before = await readFile(
      fileURLToPath(new URL('../fixtures/vitest/tie/src/pick.ts', import.meta.url)),
      'utf8',
    );
    const [failure] = report.projects[0]!.failures;
    expect(failure!.failure.title).toMatch(/ReferenceError: ad is not defined/);
    expect(failure!.outcome).not.toBe('healed');
    expect(failure!.attempts.map((a) => a.verdict)).toEqual(['unfixable']);
    expect(JSON.stringify(failure)).toMatch(/several names are equally close \(ab, ac\)/);
    expect(await readFile(join(root, 'src/pick.ts'), 'utf8')).toBe(before);
    expect(report.exitCode).toBe(1);
  });
});
