import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { HealConfigSchema } from '@suture/core';
import { runGate } from '@suture/core/internal';
import { scriptedFixer, silentLogger } from '@suture/core/testing';
import { afterAll, describe, expect, it } from 'vitest';
import jest from '../../src/index.js';
import { cleanup, copy } from './support.js';

afterAll(cleanup);

describe('the gate on a real Jest project', () => {
  it('heals a logic bug with a scripted fix, rolling back a wrong one first', async () => {
    const root = await copy('basic');
    const TOTAL = '__tests__/cart.test.js::cart total applies the discount from 100';
    const fixer = scriptedFixer(
      Array(20).fill((r: { failure: { tests: string[] }; history: unknown[] }) =>
        r.failure.tests.includes(TOTAL)
          ? r.history.length === 0
            ? {
                verdict: 'edits',
                rationale: 'guess',
                edits: [{ file: 'src/pricing.js', search: 'amount * 0.1', replace: 'amount * 0.2' }],
              }
            : {
                verdict: 'edits',
                rationale: 'boundary',
                edits: [{ file: 'src/pricing.js', search: 'amount > 100', replace: 'amount >= 100' }],
              }
          : { verdict: 'unfixable', diagnosis: 'not scripted' },
      ),
    );
    const report = await runGate({
      root,
      outputDir: join(root, '.suture/runs'),
      mode: 'check',
      projects: [
        {
          name: 'web',
          root,
          runner: jest(),
          analyzer: jest().analyzer!(),
          timeoutMs: 120_000,
          heal: HealConfigSchema.parse({ flakyReruns: 0 }),
        },
      ],
      fixers: [fixer],
      reporters: [],
      concurrency: 1,
      logger: silentLogger,
    });
    const total = report.projects[0]!.failures.find((f) => f.failure.tests.includes(TOTAL))!;
    expect(total.attempts.map((a) => a.verdict)).toEqual(['failed-validation', 'healed']);
    expect(total.outcome).toBe('healed');
    expect(report.patch).toContain('+  return amount >= 100 ? amount * 0.1 : 0;');
    // check mode: the file is back as it was
    expect(await readFile(join(root, 'src/pricing.js'), 'utf8')).toContain('amount > 100');
    execFileSync('git', ['init', '-q'], { cwd: root });
    execFileSync('git', ['apply', '--check', join(report.runDir!, 'fixes.patch')], { cwd: root });
  });
});
