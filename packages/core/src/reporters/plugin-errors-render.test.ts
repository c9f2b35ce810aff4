import { XMLParser } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import type { GateReport, PluginErrorEntry } from '../api/contracts/report.js';
import { consoleReporter } from './console.js';
import { renderJunit } from './junit.js';
import { renderMarkdown } from './markdown.js';
import { sampleReport } from './sample-report.test-support.js';

const analyzerError: PluginErrorEntry = {
  plugin: '@suture/runner-ctest',
  kind: 'analyzer',
  origin: 'suture.config.json#projects[1].runner',
  phase: 'scope',
  project: 'cpp',
  subject: `"'vector' is not a member of 'std'"`,
  message: 'compile_commands.json is missing; configure with CMAKE_EXPORT_COMPILE_COMMANDS=ON',
  occurrences: 1,
};
const reporterError: PluginErrorEntry = {
  plugin: 'suture-reporter-slack',
  kind: 'reporter',
  origin: 'suture.config.json#reporters[2]',
  phase: 'onRunEnd',
  message: 'webhook answered 404',
  occurrences: 3,
};

/** The sample report with an analyzer error in the cpp project, a reporter error, and a reverted heal. */
function broken(): GateReport {
  const report = sampleReport({ pluginErrors: [reporterError] });
  report.projects[1]!.pluginErrors = [analyzerError];
  const typo = report.projects[0]!.failures[0]!;
  report.projects[0]!.failures[0] = {
    ...typo,
    outcome: 'reverted',
    broke: ['tests/test_b.py::test_other'],
    reason: 'the heal was reverted: the regression run broke tests/test_b.py::test_other',
  };
  return report;
}

describe('plugin errors and reverted heals in the reports', () => {
  it('junit: an error test case per plugin error, the reporters in a suite of the run', () => {
    const plain = new XMLParser({
      ignoreAttributes: false,
      isArray: (n) => n === 'testsuite' || n === 'testcase',
    });
    const before = plain.parse(renderJunit(sampleReport())).testsuites;
    const doc = plain.parse(renderJunit(broken())).testsuites;
    const cpp = doc.testsuite.find((s: Record<string, string>) => s['@_name'] === 'cpp');
    const plugin = cpp.testcase.find(
      (c: Record<string, string>) => c['@_name'] === 'suture: @suture/runner-ctest failed in scope',
    );
    expect(plugin.error['@_type']).toBe('plugin-error');
    expect(plugin.error['#text']).toContain('(suture.config.json#projects[1].runner) failed in scope on');
    expect(Number(cpp['@_errors'])).toBe(2);
    const run = doc.testsuite.find((s: Record<string, string>) => s['@_name'] === 'suture');
    expect(run.testcase[0].error['#text']).toBe(
      'suture-reporter-slack (suture.config.json#reporters[2]) failed in onRunEnd: webhook answered 404 (3 times)',
    );
    expect(Number(doc['@_errors'])).toBe(Number(before['@_errors']) + 2);
  });

  it('markdown: plugin errors under their project and the run, and what a reverted heal broke', () => {
    const md = renderMarkdown(broken());
    expect(md).toContain(
      "### cpp\n\n#### Plugin errors\n\n- @suture/runner-ctest (suture.config.json#projects[1].runner) failed in scope on \"'vector' is not a member of 'std'\": compile_commands.json is missing",
    );
    expect(md).toContain(
      '### Plugin errors\n\n- suture-reporter-slack (suture.config.json#reporters[2]) failed in onRunEnd: webhook answered 404 (3 times)\n',
    );
    expect(md).toMatch(/, 2 plugin error\(s\); LLM:/);
    expect(md).toContain('#### reverted: ');
    expect(md).toContain('Broke: `tests/test_b.py::test_other`.');
  });

  it('console: each plugin error on a line of its own', async () => {
    const chunks: string[] = [];
    const r = consoleReporter({}, { isTTY: false, write: (c: string) => chunks.push(c) }, {});
    const report = broken();
    r.onProjectEnd!({ project: report.projects[1]! });
    await r.onRunEnd!(report, { runDir: '/repo/.suture/runs/x', root: '/repo' });
    const text = chunks.join('');
    expect(text).toContain(
      '    plugin error: @suture/runner-ctest (suture.config.json#projects[1].runner) failed in scope on',
    );
    expect(text).toContain(
      'plugin error: suture-reporter-slack (suture.config.json#reporters[2]) failed in onRunEnd: webhook answered 404 (3 times)',
    );
  });
});
