import { describe, expect, it } from 'vitest';
import type { FixProposalInput } from '../api/contracts/fix.js';
import { API_VERSION, type Analyzer, type Fixer } from '../api/plugin.js';
import type { TestFileModel } from '../api/test-model.js';
import { checkFixerCase } from './fixer-case.js';

const fixer = (propose: () => FixProposalInput | Promise<FixProposalInput>): Fixer => ({
  name: 'kit-fixer',
  apiVersion: API_VERSION,
  propose: async () => propose(),
});

const GO_TEST =
  'package calc\n\nimport "testing"\n\nfunc TestAdd(t *testing.T) {\n\tif Add(2, 3) != 5 {\n\t\tt.Fatal("add")\n\t}\n}\n';
const GUTTED = 'package calc\n\nimport "testing"\n\nfunc TestAdd(t *testing.T) {\n}\n';
const project = {
  'calc.go': 'package calc\n\nfunc Add(a, b int) int { return a - b }\n',
  'calc_test.go': GO_TEST,
};

/** A Go analyzer with a test model of its own, read by a line scan (enough for these two files). */
function goAnalyzer(over: Partial<Analyzer> = {}): Analyzer {
  return {
    name: 'go-analyzer',
    apiVersion: API_VERSION,
    analyze: async () => [],
    scope: async () => ({ entries: [] }),
    isTestFile: (file) => file.endsWith('_test.go'),
    testModel: (file, content): TestFileModel | undefined => {
      if (!file.endsWith('_test.go')) return undefined;
      const name = /func (Test\w+)/.exec(content)?.[1] ?? 'TestAdd';
      const asserts = content.includes('t.Fatal')
        ? [{ text: 'Add(2,3)!=5', names: ['Add'], constant: false }]
        : [];
      return { tests: [{ name, assertions: asserts, skipped: false }], mocks: [], redefinitions: [] };
    },
    ...over,
  };
}

describe("checkFixerCase runs the plugins through the gate's wrappers", () => {
  it("refuses what the analyzer's testModel shows is a gutted test, as the gate does", async () => {
    await checkFixerCase(
      fixer(() => ({
        verdict: 'edits',
        edits: [{ file: 'calc_test.go', content: GUTTED }],
        rationale: 'simpler',
      })),
      { name: 'gutted', project, expect: { verdict: 'edits', refused: /removes 1 assertion from TestAdd/ } },
      { analyzer: goAnalyzer() },
    );
  });

  it('takes an analyzer hook that throws as "cannot tell", as the gate does, instead of failing the case', async () => {
    const broken = goAnalyzer({
      isTestFile: () => {
        throw new Error('bad pattern');
      },
      checkSyntax: () => {
        throw new Error('no parser');
      },
    });
    await checkFixerCase(
      fixer(() => ({
        verdict: 'edits',
        edits: [{ file: 'calc.go', search: 'a - b', replace: 'a + b' }],
        rationale: 'Add adds',
      })),
      {
        name: 'heals',
        project,
        expect: {
          verdict: 'edits',
          files: { 'calc.go': 'package calc\n\nfunc Add(a, b int) int { return a + b }\n' },
        },
      },
      { analyzer: broken },
    );
  });

  it('fails a fixer that calls process.exit, naming it, and this process goes on', async () => {
    const exits = fixer(() => {
      process.exit(0);
    });
    await expect(
      checkFixerCase(exits, { name: 'exits', project, expect: { verdict: 'unfixable' } }),
    ).rejects.toThrow(
      'kit-fixer called process.exit(0) in propose: the gate stops the whole run for it as an internal error (exit 3); a fixer must return or throw',
    );
  });
});
