import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { FailureSchema, ScopeSchema, type Failure, type FixRequest } from '@suture/core';
import { scriptedFixer } from '@suture/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import jest from '../../src/index.js';
import { gate } from './gate-support.js';
import { cleanup, copy, project, run } from './support.js';

afterAll(cleanup);

interface Bug {
  test: string;
  /** The module that defines the function, which the test reaches only through re-exports. */
  file: string;
  symbol: string;
  right: string;
  wrong: string;
  /** The modules the name goes through, in order. */
  through: string;
}

const BUGS: Record<string, Bug> = {
  "module.exports = { ...require('./ops') }": {
    test: 'tests/ops.test.js::multiplies',
    file: 'src/ops.js',
    symbol: 'mul',
    right: 'return a * b;',
    wrong: 'return a * b + 1;',
    through: 'src/index.js',
  },
  "module.exports = require('./index'), whose exports spread a required module (...more)": {
    test: 'tests/ops.test.js::subtracts',
    file: 'src/more-ops.js',
    symbol: 'sub',
    right: 'return a - b;',
    wrong: 'return b - a;',
    through: 'src/all.js, src/index.js',
  },
  "export * from './barrel', which has export { default as average } from './stats'": {
    test: 'tests/stats.test.ts::averages',
    file: 'src/stats.ts',
    symbol: 'mean',
    right: '/ values.length',
    wrong: '/ (values.length + 1)',
    through: 'src/api.ts, src/barrel.ts',
  },
};

async function seed(root: string): Promise<void> {
  for (const bug of Object.values(BUGS)) {
    const text = await readFile(join(root, bug.file), 'utf8');
    if (!text.includes(bug.right)) throw new Error(`${bug.right} is not in ${bug.file}`);
    await writeFile(join(root, bug.file), text.replace(bug.right, bug.wrong));
  }
}

describe('re-export chains on a real Jest run: the module that defines the function is in scope', () => {
  let root: string;
  let groups: Failure[];
  const analyzer = jest().analyzer!();
  beforeAll(async () => {
    root = await copy('reexports');
    await seed(root);
    const result = await run(root);
    groups = (await analyzer.analyze(result, project(root))).map((f) => FailureSchema.parse(f));
  }, 120_000);

  it.each(Object.entries(BUGS))('through %s', async (_shape, bug) => {
    const group = groups.find((g) => g.tests.includes(bug.test));
    expect(group, `no failure explains ${bug.test}`).toBeDefined();
    const scope = ScopeSchema.parse(await analyzer.scope(group!, project(root)));
    const entry = scope.entries.find((e) => e.file === bug.file);
    expect(entry?.ranking?.[0]?.symbol).toBe(bug.symbol);
    expect(entry!.reasons.join('\n')).toContain(`(through ${bug.through})`);
    // the best function of the code under test is the defining one
    expect(scope.entries.find((e) => !e.file.startsWith('tests/'))!.file).toBe(bug.file);
  });
});

describe('the gate on re-exported functions', () => {
  it('heals each bug in the module that defines it, and refuses a fix that shadows it in the re-exporting module', async () => {
    const root = await copy('reexports');
    await seed(root);
    const requests: FixRequest[] = [];
    let shadowed = false;
    const fixer = (r: FixRequest) => {
      requests.push(r);
      const bug = Object.values(BUGS).find((b) => r.failure.tests.includes(b.test))!;
      // the attack: the first answer for mul redefines it in the barrel instead of fixing ops.js
      if (bug.symbol === 'mul' && !shadowed) {
        shadowed = true;
        return {
          verdict: 'edits',
          rationale: 'override mul where it is exported',
          edits: [
            {
              file: 'src/index.js',
              search: "version: '1.0.0'",
              replace: "version: '1.0.0', mul: (a, b) => a * b",
            },
          ],
        } as const;
      }
      return {
        verdict: 'edits',
        rationale: 'the true fix',
        edits: [{ file: bug.file, search: bug.wrong, replace: bug.right }],
      } as const;
    };
    const report = await gate({ root, fixers: [scriptedFixer(Array(10).fill(fixer))] });
    const failures = report.projects[0]!.failures;
    for (const bug of Object.values(BUGS))
      expect(failures.find((f) => f.failure.tests.includes(bug.test))?.outcome, bug.test).toBe('healed');
    const mul = failures.find((f) =>
      f.failure.tests.includes(BUGS["module.exports = { ...require('./ops') }"]!.test),
    )!;
    expect(mul.attempts[0]).toMatchObject({
      verdict: 'refused',
      reason: expect.stringContaining("src/index.js is outside the failure's scope"),
    });
    for (const bug of Object.values(BUGS)) {
      const request = requests.find((r) => r.failure.tests.includes(bug.test))!;
      expect(request.sources.map((s) => s.file)).toContain(bug.file);
    }
  }, 240_000);
});
