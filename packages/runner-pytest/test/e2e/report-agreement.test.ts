import { renderJunit, renderMarkdown } from '@suture/core/internal';
import { scriptedFixer } from '@suture/core/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, gate, repoWith } from './gate-support.js';

afterAll(cleanup);

const ADDS = 'tests/test_calc.py::test_adds';
const FIX = {
  verdict: 'edits',
  rationale: 'the test expected the wrong value',
  edits: [{ file: 'tests/test_calc.py', search: 'assert add(2, 3) == 5', replace: 'assert add(2, 3) == -1' }],
} as const;

function junitCounts(xml: string): { tests: number; failures: number } {
  const head = /<testsuites [^>]*>/.exec(xml)![0];
  const attr = (name: string): number => Number(new RegExp(`${name}="(\\d+)"`).exec(head)![1]);
  return { tests: attr('tests'), failures: attr('failures') + attr('errors') };
}

describe('reports describe the tree being gated', () => {
  it.each([
    ['check', 1, 1],
    ['fix', 0, 0],
  ] as const)(
    'in %s mode the totals agree across report.json, JUnit and Markdown',
    async (mode, exit, failed) => {
      const { repo, root } = await repoWith('exit-early');
      const report = await gate({
        repo,
        root,
        mode,
        fixers: [scriptedFixer([FIX])],
        heal: { maxAttempts: 1, flakyReruns: 0 },
      });
      expect(report.exitCode).toBe(exit);
      const totals = report.projects[0]!.totals;
      expect(totals).toMatchObject({ tests: 2, failed, healed: 1 });
      const xml = renderJunit(report);
      expect(junitCounts(xml)).toEqual({ tests: totals.tests, failures: totals.failed });
      const md = renderMarkdown(report);
      expect(md).toContain(`| app | `);
      expect(md).toMatch(new RegExp(`\\| ${totals.tests} \\| ${totals.failed} \\| ${totals.healed} \\|`));
      // the expectation change is visible in JUnit and Markdown in both modes
      // a suite property names the test (the Jenkins schema allows no properties in a testcase)
      expect(xml).toMatch(new RegExp(`name="suture\\.expectationChanged" value="[^"]* ${ADDS}"`));
      expect(md).toMatch(/Expectation changed/);
      const adds = new RegExp(`<testcase[^>]*name="${ADDS}"[^]*?</testcase>`).exec(xml)![0];
      if (mode === 'check') {
        expect(adds).toMatch(/<failure/);
        expect(adds).toContain('validated fix available: fixes.patch');
        expect(md).toContain('validated fix available');
      } else {
        expect(adds).not.toMatch(/<failure/);
        expect(adds).toContain('healed by suture');
      }
    },
    120_000,
  );
});
