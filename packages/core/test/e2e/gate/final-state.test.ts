import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { FixRequest } from '../../../src/api/contracts/fix.js';
import { jsonReporter } from '../../../src/reporters/json.js';
import { markdownReporter } from '../../../src/reporters/markdown.js';
import { scriptedFixer } from '../../../src/testing/scripted-fixer.js';
import { FIX_ADD, gate, sandbox, type Sandbox } from './support.js';

const boxes: Sandbox[] = [];
afterEach(async () => {
  for (const b of boxes.splice(0)) await rm(b.root, { recursive: true, force: true });
});

const DOUBLE = 'tests/a-double.test.mjs';
const ADD = 'tests/add.test.mjs';

/**
 * Two failure groups behind one bug: `double` is built on `add`, and its test sorts first, so its
 * group is tried first, while add still subtracts. Its own attempts fail; the heal of add, tried
 * after it, makes it pass.
 */
async function interacting(): Promise<Sandbox> {
  const b = await sandbox();
  boxes.push(b);
  await writeFile(
    join(b.root, 'src/double.mjs'),
    "import { add } from './math.mjs';\n\nexport function double(x) {\n  return add(x, x);\n}\n",
  );
  await writeFile(
    join(b.root, DOUBLE),
    "import assert from 'node:assert/strict';\nimport { double } from '../src/double.mjs';\n\nassert.equal(double(4), 8);\n",
  );
  return b;
}

const wrongDouble = {
  verdict: 'edits',
  rationale: 'twice as much',
  edits: [{ file: 'src/double.mjs', search: 'return add(x, x);', replace: 'return add(x, x) * 2;' }],
} as const;

/** Fails double's attempts (a wrong patch, then gives up) and heals add. */
function fixer() {
  let doubleAsked = 0;
  return scriptedFixer(
    Array(6).fill((r: FixRequest) => {
      if (r.failure.tests.includes(ADD)) return FIX_ADD;
      return doubleAsked++ === 0 ? wrongDouble : { verdict: 'unfixable', diagnosis: 'double looks right' };
    }),
  );
}

describe('the outcome of a failure tried before a heal that made it pass', () => {
  it('is healed, and the exit code and every report say so (the regression run covers it)', async () => {
    const b = await interacting();
    const report = await gate(b, [fixer()], {
      mode: 'fix',
      healConfig: { flakyReruns: 0 },
      reporters: [jsonReporter(), markdownReporter({}, {})],
    });
    const p = report.projects[0]!;
    const double = p.failures.find((f) => f.failure.tests.includes(DOUBLE))!;
    expect(p.failures.map((f) => f.failure.tests[0])).toEqual([DOUBLE, ADD]);
    expect(double.attempts.map((a) => a.verdict)).toEqual(['failed-validation', 'unfixable']);
    expect(double.outcome).toBe('healed');
    expect(double.reason).toMatch(
      /^its tests pass on the final tree, after the heal of tests\/add\.test\.mjs: /,
    );
    expect(p.status).toBe('healed');
    expect(p.totals).toMatchObject({ failures: 2, healed: 2, stillFailing: 0, failed: 0 });
    expect(report.exitCode).toBe(0);
    // the regression run ran on the final tree and showed it: no extra run
    expect(p.rounds.map((r) => r.kind).filter((k) => k !== 'retry')).toEqual(['initial', 'regression']);
    const json = JSON.parse(await readFile(join(report.runDir!, 'report.json'), 'utf8'));
    expect(json.projects[0].failures[0].outcome).toBe('healed');
    expect(json.exitCode).toBe(0);
    const md = await readFile(join(report.runDir!, 'summary.md'), 'utf8');
    expect(md).toMatch(/^## suture: green \(fix mode\)/);
    expect(md).toContain('| calc | 🩹 healed |');
    expect(await readFile(join(b.root, 'src/double.mjs'), 'utf8')).toContain('return add(x, x);\n');
  });

  it('is checked by a targeted re-run of its tests when there is no regression run', async () => {
    const b = await interacting();
    const report = await gate(b, [fixer()], {
      mode: 'fix',
      healConfig: { flakyReruns: 0, regression: false },
    });
    const p = report.projects[0]!;
    const double = p.failures.find((f) => f.failure.tests.includes(DOUBLE))!;
    expect(double.outcome).toBe('healed');
    const recheck = p.rounds.filter((r) => r.kind === 'recheck');
    expect(recheck.map((r) => r.tests.map((t) => [t.id, t.status]))).toEqual([[[DOUBLE, 'passed']]]);
    expect(report.exitCode).toBe(0);
  });

  it('stays failing when its tests still fail on the final tree', async () => {
    const b = await interacting();
    // double(4) is 8 once add adds; this test wants 9, which no heal of add gives
    await writeFile(
      join(b.root, DOUBLE),
      "import assert from 'node:assert/strict';\nimport { double } from '../src/double.mjs';\n\nassert.equal(double(4), 9);\n",
    );
    const report = await gate(b, [fixer()], { mode: 'fix', healConfig: { flakyReruns: 0 } });
    const p = report.projects[0]!;
    expect(p.failures.map((f) => [f.failure.tests[0], f.outcome])).toEqual([
      [DOUBLE, 'exhausted'],
      [ADD, 'healed'],
    ]);
    expect(p.status).toBe('failed_after_repair');
    expect(report.exitCode).toBe(1);
  });

  it('is flaky, not healed, when no heal since wrote a file of its scope', async () => {
    const b = await sandbox();
    boxes.push(b);
    const marker = join(b.root, '..', `${b.root.split('/').pop()}-flaky-marker`);
    await writeFile(
      join(b.root, 'tests/a-flaky.test.mjs'),
      `import { existsSync, writeFileSync } from 'node:fs';\nif (!existsSync(${JSON.stringify(marker)})) { writeFileSync(${JSON.stringify(marker)}, 'x'); throw new Error('first run fails'); }\n`,
    );
    // no flaky triage: the test goes to the fixer, which gives up; add is healed after it
    const report = await gate(
      b,
      [
        scriptedFixer(
          Array(4).fill((r: FixRequest) =>
            r.failure.tests.includes(ADD) ? FIX_ADD : { verdict: 'unfixable', diagnosis: 'no idea' },
          ),
        ),
      ],
      {
        mode: 'fix',
        healConfig: { flakyReruns: 0 },
      },
    );
    await rm(marker, { force: true });
    const p = report.projects[0]!;
    expect(p.failures.map((f) => [f.failure.tests[0], f.outcome])).toEqual([
      ['tests/a-flaky.test.mjs', 'flaky'],
      [ADD, 'healed'],
    ]);
    expect(p.failures[0]!.reason).toBe(
      'it failed when it was tried and passes on the final tree, and no heal since wrote a file of its scope',
    );
    expect(p.status).toBe('healed');
    expect(report.exitCode).toBe(0);
  });
});
