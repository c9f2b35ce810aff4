import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { scriptedFixer } from '@suture/core/testing';
import type { GateReport } from '@suture/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, gate, repoWith } from './gate-support.js';

afterAll(cleanup);

const ADD = '.::TestAdd';
const FIXED = (source: string): string => source.replace('return a - b', 'return a + b');

let original: { code: string; test: string };
beforeAll(async () => {
  const { root } = await repoWith('calc');
  original = {
    code: await readFile(join(root, 'calc.go'), 'utf8'),
    test: await readFile(join(root, 'calc_test.go'), 'utf8'),
  };
});

/** One gate in fix mode on a fresh copy of the fixture, with a fixer that proposes `edits` every time. */
async function healWith(
  edits: Array<{ file: string; content: string }>,
): Promise<{ report: GateReport; root: string }> {
  const { repo, root } = await repoWith('calc');
  const fixer = scriptedFixer(Array(2).fill({ verdict: 'edits', rationale: 'make it green', edits }));
  const report = await gate({
    repo,
    root,
    mode: 'fix',
    fixers: [fixer],
    heal: { maxAttempts: 1, flakyReruns: 0 },
  });
  return { report, root };
}

function addOutcome(report: GateReport): { outcome: string; reason: string } {
  const f = report.projects[0]!.failures.find((x) => x.failure.tests.includes(ADD))!;
  return { outcome: f.outcome, reason: f.attempts.map((a) => `${a.verdict}: ${a.reason ?? ''}`).join('\n') };
}

describe('the gate with real go test', () => {
  it('heals the bug in the code under test, validated by re-running the failed test, and writes it in fix mode', async () => {
    const { report, root } = await healWith([{ file: 'calc.go', content: FIXED(original.code) }]);
    const project = report.projects[0]!;
    expect(project.status).toBe('healed');
    expect(addOutcome(report).outcome).toBe('healed');
    expect(await readFile(join(root, 'calc.go'), 'utf8')).toContain('return a + b');
    const validation = project.failures[0]!.attempts[0]!.validation!;
    expect(validation.command).toMatch(/ -run '\^(?:TestAdd|\(\?:TestAdd\|TestSub\))\$' \.$/);
  });

  const attacks: Array<[string, (test: string) => string]> = [
    [
      'adds t.Skip() to the failing test',
      (t) => t.replace('got := Add(2, 3)', 't.Skip("later")\n\tgot := Add(2, 3)'),
    ],
    [
      'returns before the assertion',
      (t) => t.replace('got := Add(2, 3)', 'got := Add(2, 3)\n\tif got != 0 {\n\t\treturn\n\t}'),
    ],
    [
      'deletes the assertion',
      (t) => t.replace(/\tif got != 5 \{\n\t\tt.Errorf\([^\n]*\n\t\}\n/, '\t_ = got\n'),
    ],
    [
      'rewrites `if got != 5` to a condition that is always false',
      (t) => t.replace('if got != 5 {', 'if got != got {'),
    ],
    ['guards the assertion with `false &&`', (t) => t.replace('if got != 5 {', 'if false && got != 5 {')],
  ];
  for (const [name, attack] of attacks)
    it(`refuses a fixer that ${name}`, async () => {
      const weakened = attack(original.test);
      expect(weakened).not.toBe(original.test);
      const { report, root } = await healWith([{ file: 'calc_test.go', content: weakened }]);
      const { outcome, reason } = addOutcome(report);
      expect(outcome).not.toBe('healed');
      expect(reason).toMatch(/^refused: .*weak|^refused: /m);
      expect(report.projects[0]!.status).not.toBe('healed');
      expect(await readFile(join(root, 'calc_test.go'), 'utf8')).toBe(original.test);
    });

  it('refuses code under test that ends the test binary with os.Exit(0) before the tests report', async () => {
    const code = original.code.replace(
      'package calc\n',
      'package calc\n\nimport "os"\n\nfunc init() { os.Exit(0) }\n',
    );
    const { report } = await healWith([{ file: 'calc.go', content: code }]);
    const { outcome, reason } = addOutcome(report);
    expect(outcome).not.toBe('healed');
    expect(reason).toMatch(/tampering edit to calc\.go: line \d+ adds os\.Exit\(\)/);
  });

  it('refuses a TestMain that exits 0 whatever the tests did', async () => {
    const test = `${original.test}\nfunc TestMain(m *testing.M) { m.Run() }\n`;
    const { report } = await healWith([{ file: 'calc_test.go', content: test }]);
    expect(addOutcome(report).outcome).not.toBe('healed');
    expect(addOutcome(report).reason).toMatch(/TestMain/);
  });
});
