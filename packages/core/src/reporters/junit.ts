import { createRequire } from 'node:module';
import { z } from 'zod';
import type { GateReport, PluginErrorEntry, ProjectReport } from '../api/contracts/report.js';
import type { TestResult } from '../api/contracts/run-result.js';
import { API_VERSION, type Reporter } from '../api/plugin.js';
import { gatedRound, testNotes, type TestNote } from './gated-tests.js';
import { pluginErrorLine } from './plugin-error-line.js';
import { outputPath, writeOutput } from './write-file.js';

/**
 * fast-xml-parser's ES build is some 40 modules; its CommonJS build is one file, required when a
 * report is rendered, so a run without the JUnit reporter never loads it.
 */
function xmlBuilder(): typeof import('fast-xml-parser').XMLBuilder {
  return (createRequire(import.meta.url)('fast-xml-parser') as typeof import('fast-xml-parser')).XMLBuilder;
}

const JunitOptionsSchema = z.object({ file: z.string().default('results.xml') }).strict();

type XmlNode = Record<string, unknown>;

// XML 1.0 forbids most control characters (ANSI escapes from test output, NUL bytes).
const INVALID_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;
function clean(text: string): string {
  return text.replace(INVALID_XML, '');
}

function testcase(project: string, test: TestResult, note: TestNote | undefined, patch: string): XmlNode {
  const node: XmlNode = {
    '@_classname': project,
    '@_name': clean(test.name ?? test.id),
    '@_time': ((test.durationMs ?? 0) / 1000).toFixed(3),
  };
  if (test.file) node['@_file'] = test.file;
  if (test.line) node['@_line'] = String(test.line);
  const body = {
    '@_message': clean((test.message ?? test.status).slice(0, 1000)),
    '#text': clean(test.trace ?? test.message ?? ''),
  };
  switch (test.status) {
    case 'failed':
      node.failure = { ...body, '@_type': 'failure' };
      break;
    case 'timeout':
      node.failure = { ...body, '@_type': 'timeout' };
      break;
    case 'error':
    case 'crashed':
      node.error = { ...body, '@_type': test.status };
      break;
    case 'skipped':
      node.skipped = { '@_message': test.message ?? '' };
      break;
    default:
      break;
  }
  if (note) {
    const out = [
      note.fixAvailable
        ? `validated fix available: ${patch} (not applied: suture ran in check mode)`
        : `healed by suture: see ${patch}`,
    ];
    if (note.expectationChanged)
      out.push('expectation changed: the fix edits an expected value in a test; review it');
    node['system-out'] = out.join('\n');
    node.properties = {
      property: [
        { '@_name': 'suture.fix', '@_value': note.fixAvailable ? 'available' : 'applied' },
        { '@_name': 'suture.patch', '@_value': patch },
        ...(note.expectationChanged ? [{ '@_name': 'suture.expectationChanged', '@_value': 'true' }] : []),
      ],
    };
  }
  return node;
}

/** A plugin that threw is an error of the run, with a test case of its own so CI shows it. */
function pluginErrorCase(classname: string, e: PluginErrorEntry): XmlNode {
  return {
    '@_classname': classname,
    '@_name': clean(`suture: ${e.plugin} failed in ${e.phase}`),
    '@_time': '0',
    error: {
      '@_message': clean(e.message.slice(0, 1000)),
      '@_type': 'plugin-error',
      '#text': clean(pluginErrorLine(e)),
    },
  };
}

function counted(name: string, cases: XmlNode[], time: number): XmlNode {
  const count = (key: string): number => cases.filter((c) => key in c).length;
  return {
    '@_name': name,
    '@_tests': String(cases.length),
    '@_failures': String(count('failure')),
    '@_errors': String(count('error')),
    '@_skipped': String(count('skipped')),
    '@_time': (time / 1000).toFixed(3),
    testcase: cases,
  };
}

function suite(project: ProjectReport, mode: GateReport['mode'], patch: string): XmlNode {
  const round = gatedRound(project, mode);
  const notes = testNotes(project, mode);
  const cases = (round?.tests ?? []).map((t) => testcase(project.name, t, notes.get(t.id), patch));
  // Failures that stop the whole suite (a build error) have no test of their own: give them one.
  for (const f of project.failures) {
    if (f.failure.tests.length > 0 || (f.outcome === 'healed' && mode !== 'check')) continue;
    cases.push({
      '@_classname': project.name,
      '@_name': `suture: ${f.failure.title}`,
      '@_time': '0',
      error: {
        '@_message': clean(f.failure.title.slice(0, 1000)),
        '@_type': f.failure.kind,
        '#text': clean(f.failure.evidence),
      },
    });
  }
  if (project.error && cases.length === 0) {
    cases.push({
      '@_classname': project.name,
      '@_name': 'suture: run',
      '@_time': '0',
      error: { '@_message': clean(project.error), '@_type': 'error' },
    });
  }
  for (const e of project.pluginErrors) cases.push(pluginErrorCase(project.name, e));
  return counted(project.name, cases, project.durationMs);
}

/** Renders the merged JUnit XML of every project (one `<testsuite>` per project). */
export function renderJunit(report: GateReport, patch = 'fixes.patch'): string {
  const suites = report.projects.map((p) => suite(p, report.mode, patch));
  // Reporters belong to the run, not to a project.
  if (report.pluginErrors.length > 0)
    suites.push(
      counted(
        'suture',
        report.pluginErrors.map((e) => pluginErrorCase('suture', e)),
        0,
      ),
    );
  const sum = (key: string): number => suites.reduce((n, s) => n + Number(s[key]), 0);
  // a property's value="true" must stay an attribute with a value, not a bare boolean attribute
  const builder = new (xmlBuilder())({
    ignoreAttributes: false,
    format: true,
    suppressEmptyNode: true,
    suppressBooleanAttributes: false,
  });
  const xml = builder.build({
    testsuites: {
      '@_name': 'suture',
      '@_tests': String(sum('@_tests')),
      '@_failures': String(sum('@_failures')),
      '@_errors': String(sum('@_errors')),
      '@_skipped': String(sum('@_skipped')),
      '@_time': (report.durationMs / 1000).toFixed(3),
      testsuite: suites,
    },
  }) as string;
  return `<?xml version="1.0" encoding="UTF-8"?>\n${xml}`;
}

/** Writes `results.xml`: every project's final test results merged into one JUnit file. */
export function junitReporter(options: Record<string, unknown> = {}): Reporter {
  const { file } = JunitOptionsSchema.parse(options);
  return {
    name: 'suture:junit',
    apiVersion: API_VERSION,
    async onRunEnd(report, { runDir }) {
      await writeOutput(outputPath(runDir, file), renderJunit(report, outputPath(runDir, 'fixes.patch')));
    },
  };
}
