import { cp, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createGateOptions, loadConfig, runGate } from '@suture/core/internal';
import { type GateReport } from '@suture/core';
import { silentLogger, snapshotTree } from '@suture/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const REPO = fileURLToPath(new URL('../../../../', import.meta.url));
let dir: string;
let report: GateReport;
let before: Map<string, string>;

// The bundled example, gated with only the deterministic fixer (no LLM, no key), as `npm run example` does.
beforeAll(async () => {
  await mkdir(join(REPO, '.tmp'), { recursive: true });
  dir = await mkdtemp(join(REPO, '.tmp', 'polyglot-'));
  await cp(join(REPO, 'examples/polyglot'), dir, {
    recursive: true,
    filter: (src) => !/\.suture|build-suture|__pycache__/.test(src),
  });
  before = await snapshotTree(dir, ['.suture/**', 'cpp/build-suture/**']);
  const loaded = await loadConfig({ cwd: dir });
  const options = await createGateOptions(loaded, {
    mode: 'check',
    logger: silentLogger,
    output: { stream: { write: () => true }, env: {} },
    reporters: ['json'],
  });
  report = await runGate(options);
}, 600_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const project = (name: string) => report.projects.find((p) => p.name === name)!;

describe('the polyglot example with the hints fixer only', () => {
  it.each([
    ['python', 'exception', /NameError: name 'totl'/],
    ['cpp', 'build', /'string' in namespace 'std'/],
    ['js', 'exception', /ReferenceError: subtotl is not defined/],
  ])('heals the mechanical failure of %s', (name, kind, title) => {
    const healed = project(name).failures.find((f) => f.outcome === 'healed')!;
    expect(healed.failure.kind).toBe(kind);
    expect(healed.failure.title).toMatch(title);
    expect(healed.attempts.at(-1)!.fixer).toBe('@suture/fixer-hints');
  });

  it('reports each logic bug as needing an LLM fixer', () => {
    for (const name of ['python', 'cpp', 'js']) {
      const logic = project(name).failures.filter((f) => f.outcome !== 'healed');
      expect(logic.map((f) => [f.failure.kind, f.outcome])).toEqual([['assertion', 'unfixable']]);
      expect(logic[0]!.reason).toMatch(/needs an LLM fixer/);
      expect(project(name).status).toBe('failed_after_repair');
    }
    expect(report.exitCode).toBe(1);
  });

  it('leaves the tree as it was and writes the three heals to the patch', async () => {
    expect(await snapshotTree(dir, ['.suture/**', 'cpp/build-suture/**'])).toEqual(before);
    expect(report.patch).toContain('+    return total');
    expect(report.patch).toContain('+#include <string>');
    expect(report.patch).toContain('shippingCost(subtotal)');
  });
});
