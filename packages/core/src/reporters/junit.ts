import { createRequire } from 'node:module';
import { z } from 'zod';
import { relative } from 'node:path';
import type { GateReport, ProjectReport } from '../api/contracts/report.js';
import { API_VERSION, type Reporter } from '../api/plugin.js';
import { gatedRound, testNotes, type TestNote } from './gated-tests.js';
import { clean, pluginErrorCase, testcase, type TestHistory, type XmlNode } from './junit-case.js';
import { portableReport, rootSpellings } from './portable.js';
import { outputPath, writeOutput } from './write-file.js';

/**
 * fast-xml-parser's ES build is some 40 modules; its CommonJS build is one file, required when a
 * report is rendered, so a run without the JUnit reporter never loads it.
 */
function xmlBuilder(): typeof import('fast-xml-parser').XMLBuilder {
  return (createRequire(import.meta.url)('fast-xml-parser') as typeof import('fast-xml-parser')).XMLBuilder;
}

const JunitOptionsSchema = z
  .object({
    file: z.string().default('results.xml'),
    /**
     * `jenkins`: valid against the Jenkins xunit schema (junit-10.xsd). `gitlab`: also a `file`
     * attribute on each test case, which GitLab's test report links and that schema refuses.
     * Default: `gitlab` in a GitLab CI job (`GITLAB_CI=true`), else `jenkins`.
     */
    flavor: z.enum(['jenkins', 'gitlab']).optional(),
  })
  .strict();

/** What the JUnit file is written for; GitLab CI jobs set GITLAB_CI=true. */
export type JunitFlavor = 'jenkins' | 'gitlab';

interface Suite {
  node: XmlNode;
  /** The cases that are tests: what the console counts (a build error's case is not one). */
  tests: number;
}

function counted(
  name: string,
  cases: XmlNode[],
  tests: number,
  time: number,
  properties: XmlNode[] = [],
): Suite {
  const count = (key: string): number => cases.filter((c) => key in c).length;
  return {
    tests,
    node: {
      '@_name': name,
      '@_tests': String(tests),
      '@_failures': String(count('failure')),
      '@_errors': String(count('error')),
      '@_skipped': String(count('skipped')),
      '@_time': (time / 1000).toFixed(3),
      ...(properties.length ? { properties: { property: properties } } : {}),
      testcase: cases,
    },
  };
}

/** What suture adds to a suite's tests, where the schema allows it: the suite's properties. */
function suiteProperties(
  cases: XmlNode[],
  notes: Map<string, TestNote>,
  ids: string[],
  patch: string,
): XmlNode[] {
  const out: XmlNode[] = [];
  ids.forEach((id, i) => {
    const note = notes.get(id);
    if (!note) return;
    const test = `${String(cases[i]!['@_classname'])} ${String(cases[i]!['@_name'])}`;
    out.push({
      '@_name': note.fixAvailable ? 'suture.fix.available' : 'suture.fix.applied',
      '@_value': test,
    });
    if (note.expectationChanged) out.push({ '@_name': 'suture.expectationChanged', '@_value': test });
  });
  return out.length ? [{ '@_name': 'suture.patch', '@_value': patch }, ...out] : [];
}

/** How the suite's tests were chosen under `--changed`: selected of total, and why all ran. */
function selectionProperties(project: ProjectReport): XmlNode[] {
  const s = project.selection;
  if (!s) return [];
  return [
    { '@_name': 'suture.selection.basis', '@_value': s.basis },
    { '@_name': 'suture.selection.selected', '@_value': String(s.selected) },
    { '@_name': 'suture.selection.total', '@_value': String(s.total) },
    ...(s.fallback ? [{ '@_name': 'suture.selection.fallback', '@_value': clean(s.fallback) }] : []),
    ...(s.recorded !== undefined
      ? [
          {
            '@_name': 'suture.selection.recorded',
            '@_value': clean(s.recorded === true ? 'yes' : s.recorded),
          },
        ]
      : []),
  ];
}

/** Each re-run test's results on the unchanged tree: the first run's, then the flaky triage's. */
function testHistories(project: ProjectReport): Map<string, TestHistory> {
  const reruns = project.rounds.filter((r) => r.purpose === 'flaky-triage');
  const initial = project.rounds.find((r) => r.kind === 'initial');
  if (reruns.length === 0 || !initial) return new Map();
  const flaky = new Set(
    project.failures.filter((f) => f.outcome === 'flaky').flatMap((f) => f.failure.tests),
  );
  const first = new Map(initial.tests.map((t) => [t.id, t]));
  const out = new Map<string, TestHistory>();
  for (const round of reruns)
    for (const t of round.tests) {
      const h = out.get(t.id) ?? { first: first.get(t.id), reruns: [], flaky: flaky.has(t.id) };
      h.reruns.push(t);
      out.set(t.id, h);
    }
  return out;
}

function suite(
  root: string,
  project: ProjectReport,
  mode: GateReport['mode'],
  patch: string,
  flavor: JunitFlavor,
): Suite {
  const round = gatedRound(project, mode);
  const notes = testNotes(project, mode);
  const tests = round?.tests ?? [];
  const histories = testHistories(project);
  const cases = tests.map((t) =>
    testcase(root, project, t, notes.get(t.id), patch, histories.get(t.id), flavor === 'gitlab'),
  );
  const properties = suiteProperties(
    cases,
    notes,
    tests.map((t) => t.id),
    patch,
  );
  // Failures that stop the whole suite (a build error) have no test of their own: give them one.
  for (const f of project.failures) {
    if (f.failure.tests.length > 0 || (f.outcome === 'healed' && mode !== 'check')) continue;
    cases.push({
      '@_name': clean(`suture: ${f.failure.title}`),
      '@_classname': project.name,
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
      '@_name': 'suture: run',
      '@_classname': project.name,
      '@_time': '0',
      error: { '@_message': clean(project.error), '@_type': 'error' },
    });
  }
  for (const e of project.pluginErrors) cases.push(pluginErrorCase(project.name, e));
  return counted(project.name, cases, tests.length, project.durationMs, [
    ...properties,
    ...selectionProperties(project),
  ]);
}

/**
 * Renders the merged JUnit XML of every project (one `<testsuite>` per project), valid against
 * the Jenkins xunit schema (`junit-10.xsd`) and read by GitLab's parser; the `gitlab` flavor adds
 * each test case's repository-relative `file`, which GitLab links and the schema refuses. `tests` counts the tests
 * that ran, as the console does; a build error or a plugin error is an error case besides them.
 */
export function renderJunit(
  report: GateReport,
  patch = 'fixes.patch',
  flavor: JunitFlavor = 'jenkins',
): string {
  const suites = report.projects.map((p) => suite(report.root, p, report.mode, patch, flavor));
  // Reporters belong to the run, not to a project.
  if (report.pluginErrors.length > 0)
    suites.push(
      counted(
        'suture',
        report.pluginErrors.map((e) => pluginErrorCase('suture', e)),
        0,
        0,
      ),
    );
  const sum = (key: string): number => suites.reduce((n, s) => n + Number(s.node[key]), 0);
  // a property's value="true" must stay an attribute with a value, not a bare boolean attribute
  const builder = new (xmlBuilder())({
    ignoreAttributes: false,
    format: true,
    suppressEmptyNode: true,
    suppressBooleanAttributes: false,
  });
  // The schema allows no `skipped` on testsuites: each suite carries its own.
  const xml = builder.build({
    testsuites: {
      '@_name': 'suture',
      '@_tests': String(suites.reduce((n, s) => n + s.tests, 0)),
      '@_failures': String(sum('@_failures')),
      '@_errors': String(sum('@_errors')),
      '@_time': (report.durationMs / 1000).toFixed(3),
      testsuite: suites.map((s) => s.node),
    },
  }) as string;
  return `<?xml version="1.0" encoding="UTF-8"?>\n${xml}`;
}

/** Writes `results.xml`: every project's final test results merged into one JUnit file. */
export function junitReporter(options: Record<string, unknown> = {}): Reporter {
  const { file, flavor } = JunitOptionsSchema.parse(options);
  return {
    name: 'suture:junit',
    apiVersion: API_VERSION,
    async onRunEnd(report, { runDir, root }) {
      const patch = relative(root, outputPath(runDir, 'fixes.patch'));
      const xml = renderJunit(
        portableReport(report, rootSpellings(root)),
        patch,
        flavor ?? (process.env.GITLAB_CI === 'true' ? 'gitlab' : 'jenkins'),
      );
      await writeOutput(outputPath(runDir, file), xml);
    },
  };
}
