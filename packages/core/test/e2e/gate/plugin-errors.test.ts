import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { afterEach, describe, expect, it } from 'vitest';
import type { GateReport } from '../../../src/api/contracts/report.js';
import { API_VERSION, type Reporter } from '../../../src/api/plugin.js';
import { wrapAnalyzer, wrapFixer, wrapReporter, wrapRunner } from '../../../src/host/wrap-plugin.js';
import { jsonReporter } from '../../../src/reporters/json.js';
import { junitReporter } from '../../../src/reporters/junit.js';
import { markdownReporter } from '../../../src/reporters/markdown.js';
import { scriptAnalyzer, scriptRunner } from '../../../src/testing/script-runner.js';
import { scriptedFixer } from '../../../src/testing/scripted-fixer.js';
import { FIX_ADD, gate, project, sandbox, type Sandbox } from './support.js';

const boxes: Sandbox[] = [];
afterEach(async () => {
  for (const b of boxes.splice(0)) await rm(b.root, { recursive: true, force: true });
});

const at = (keyPath: string) => ({ configFile: 'suture.config.json', keyPath });
const writers = (): Reporter[] => [jsonReporter(), junitReporter(), markdownReporter({}, {})];

interface Written {
  json: GateReport;
  xml: string;
  /** Every `<testcase>` of results.xml, by suite name. */
  cases: Record<string, Array<Record<string, unknown>>>;
  md: string;
}

async function written(report: GateReport): Promise<Written> {
  const xml = await readFile(join(report.runDir!, 'results.xml'), 'utf8');
  const doc = new XMLParser({
    ignoreAttributes: false,
    isArray: (name) => name === 'testsuite' || name === 'testcase',
  }).parse(xml);
  const cases: Written['cases'] = {};
  for (const s of doc.testsuites.testsuite) cases[s['@_name']] = s.testcase;
  return {
    json: JSON.parse(await readFile(join(report.runDir!, 'report.json'), 'utf8')),
    xml,
    cases,
    md: await readFile(join(report.runDir!, 'summary.md'), 'utf8'),
  };
}

/** The `<error>` of the test case results.xml gives a plugin error. */
function errorCase(cases: Array<Record<string, unknown>>, name: string): Record<string, string> {
  const found = cases.find((c) => c['@_name'] === name);
  if (!found) throw new Error(`no test case "${name}" in ${JSON.stringify(cases.map((c) => c['@_name']))}`);
  return found.error as Record<string, string>;
}

describe('a plugin that throws is named in every report', () => {
  it('an analyzer: its message, not "found no failure", in report.json, results.xml and summary.md', async () => {
    const b = await sandbox();
    boxes.push(b);
    const broken = wrapAnalyzer(
      {
        ...scriptAnalyzer(),
        name: 'broken-analyzer',
        analyze: async () => {
          throw new Error('no grammar for .mjs files');
        },
      },
      at('projects[0].analyzer'),
      b.logger,
    );
    const report = await gate(b, [scriptedFixer([FIX_ADD])], {
      projects: [project(b.root, { analyzer: broken })],
      reporters: writers(),
    });
    const { json, cases, md } = await written(report);
    const p = json.projects[0]!;
    expect(p.status).toBe('failed');
    expect(p.error).toBe(
      'broken-analyzer failed in analyze, so 1 failing test(s) went unexplained: no grammar for .mjs files',
    );
    expect(p.error).not.toMatch(/found no failure/);
    expect(p.pluginErrors).toEqual([
      {
        plugin: 'broken-analyzer',
        kind: 'analyzer',
        origin: 'suture.config.json#projects[0].analyzer',
        phase: 'analyze',
        project: 'calc',
        subject: 'the initial run',
        message: 'no grammar for .mjs files',
        occurrences: 1,
      },
    ]);
    const error = errorCase(cases['calc']!, 'suture: broken-analyzer failed in analyze');
    expect(error['@_type']).toBe('plugin-error');
    expect(error['@_message']).toBe('no grammar for .mjs files');
    expect(error['#text']).toBe(
      'broken-analyzer (suture.config.json#projects[0].analyzer) failed in analyze on the initial run: no grammar for .mjs files',
    );
    expect(md).toContain(
      '#### Plugin errors\n\n- broken-analyzer (suture.config.json#projects[0].analyzer) failed in analyze on the initial run: no grammar for .mjs files\n',
    );
    expect(md).toMatch(/Totals: .*, 1 plugin error\(s\);/);
  });

  it('a runner: the run it was making', async () => {
    const b = await sandbox();
    boxes.push(b);
    const runner = wrapRunner(
      {
        ...scriptRunner(),
        name: 'broken-runner',
        run: async () => {
          throw new Error('node not found on PATH');
        },
      },
      at('projects[0].runner'),
      b.logger,
    );
    const report = await gate(b, [], {
      projects: [project(b.root, { runner })],
      reporters: writers(),
    });
    const { json, cases, md } = await written(report);
    expect(json.projects[0]!.pluginErrors).toMatchObject([
      {
        plugin: 'broken-runner',
        kind: 'runner',
        origin: 'suture.config.json#projects[0].runner',
        phase: 'run',
        subject: 'the initial run',
        message: 'node not found on PATH',
      },
    ]);
    expect(report.exitCode).toBe(1);
    expect(errorCase(cases['calc']!, 'suture: broken-runner failed in run')['#text']).toContain(
      'suture.config.json#projects[0].runner',
    );
    expect(md).toContain(
      '- broken-runner (suture.config.json#projects[0].runner) failed in run on the initial run',
    );
  });

  it('a fixer: the failure and attempt it was asked about, while the next fixer heals', async () => {
    const b = await sandbox();
    boxes.push(b);
    const thrower = wrapFixer(
      scriptedFixer([new Error('model overloaded')], 'broken-fixer'),
      at('fixers[0]'),
      b.logger,
    );
    const report = await gate(b, [thrower, scriptedFixer([FIX_ADD], 'good-fixer')], {
      mode: 'fix',
      reporters: writers(),
      healConfig: { flakyReruns: 0 },
    });
    const { json, cases, md } = await written(report);
    const p = json.projects[0]!;
    const add = p.failures.find((f) => f.failure.tests.includes('tests/add.test.mjs'))!;
    expect(add.outcome).toBe('healed');
    expect(add.attempts.map((a) => [a.fixer, a.verdict])).toEqual([
      ['broken-fixer', 'fixer-error'],
      ['good-fixer', 'healed'],
    ]);
    expect(p.pluginErrors).toEqual([
      {
        plugin: 'broken-fixer',
        kind: 'fixer',
        origin: 'suture.config.json#fixers[0]',
        phase: 'propose',
        project: 'calc',
        subject: `"${add.failure.title}", attempt 1`,
        message: 'model overloaded',
        occurrences: 1,
      },
    ]);
    expect(errorCase(cases['calc']!, 'suture: broken-fixer failed in propose')['#text']).toBe(
      `broken-fixer (suture.config.json#fixers[0]) failed in propose on "${add.failure.title}", attempt 1: model overloaded`,
    );
    expect(md).toContain(
      `- broken-fixer (suture.config.json#fixers[0]) failed in propose on "${add.failure.title}", attempt 1: model overloaded`,
    );
  });

  it('a reporter: the hook and what it was reporting, in the files the other reporters write', async () => {
    const b = await sandbox();
    boxes.push(b);
    const endsBadly = wrapReporter(
      {
        name: 'broken-at-end',
        apiVersion: API_VERSION,
        onRunEnd: () => {
          throw new Error('upload refused: 403');
        },
      },
      at('reporters[0]'),
      b.logger,
    );
    const failsOnTests = wrapReporter(
      {
        name: 'broken-on-tests',
        apiVersion: API_VERSION,
        onTestResult: (e) => {
          if (e.test.status !== 'passed')
            throw new TypeError("cannot read properties of undefined (reading 'id')");
        },
      },
      at('reporters[4]'),
      b.logger,
    );
    await writeFile(join(b.root, 'tests/zero.test.mjs'), "throw new Error('not written yet');\n");
    const report = await gate(b, [], {
      mode: 'no-heal',
      healConfig: { flakyReruns: 0 },
      // config order: the one failing at the end comes first, so the writers after it see it
      reporters: [endsBadly, ...writers(), failsOnTests],
    });
    const { json, cases, md } = await written(report);
    expect(json.pluginErrors).toEqual([
      {
        plugin: 'broken-on-tests',
        kind: 'reporter',
        origin: 'suture.config.json#reporters[4]',
        phase: 'onTestResult',
        project: 'calc',
        subject: 'test tests/add.test.mjs',
        message: "cannot read properties of undefined (reading 'id')",
        // the same hook failed the same way on the other failing test too
        occurrences: 2,
      },
      {
        plugin: 'broken-at-end',
        kind: 'reporter',
        origin: 'suture.config.json#reporters[0]',
        phase: 'onRunEnd',
        message: 'upload refused: 403',
        occurrences: 1,
      },
    ]);
    expect(report.pluginErrors).toEqual(json.pluginErrors);
    expect(errorCase(cases['suture']!, 'suture: broken-at-end failed in onRunEnd')['@_message']).toBe(
      'upload refused: 403',
    );
    expect(errorCase(cases['suture']!, 'suture: broken-on-tests failed in onTestResult')['#text']).toBe(
      "broken-on-tests (suture.config.json#reporters[4]) failed in onTestResult on test tests/add.test.mjs: cannot read properties of undefined (reading 'id') (2 times)",
    );
    expect(md).toContain('### Plugin errors\n\n- broken-on-tests');
    expect(md).toContain(
      '- broken-at-end (suture.config.json#reporters[0]) failed in onRunEnd: upload refused: 403',
    );
  });
});
