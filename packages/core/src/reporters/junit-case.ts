import type { PluginErrorEntry, ProjectReport } from '../api/contracts/report.js';
import type { TestResult } from '../api/contracts/run-result.js';
import type { TestNote } from './gated-tests.js';
import { pluginErrorLine } from './plugin-error-line.js';
import { repoPath } from './repo-path.js';

export type XmlNode = Record<string, unknown>;

// XML 1.0 forbids most control characters (ANSI escapes from test output, NUL bytes).
const INVALID_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;
export function clean(text: string): string {
  return text.replace(INVALID_XML, '');
}

/**
 * A test's class as Jenkins and GitLab group by it: its repository-relative file as a dotted
 * module path without extensions (`web/__tests__/cart.test.js` is `web.__tests__.cart`, as pytest
 * names `tests/test_cart.py` `tests.test_cart`), so Jenkins' package tree is the folder tree and
 * two projects' `index.test.js` stay apart. A test with no file is the project's.
 */
export function classnameOf(repoRoot: string, project: ProjectReport, test: TestResult): string {
  if (!test.file || test.file.startsWith('<')) return project.name;
  const parts = repoPath(repoRoot, project.root, test.file)
    .split('/')
    .filter((p) => p !== '' && p !== '.');
  const last = parts.pop() ?? '';
  const stem = last.replace(/(?<=.)\..*$/, '');
  return [...parts, stem].join('.') || project.name;
}

/** The status element of a test: the only place GitLab and Jenkins read a test's outcome from. */
function outcome(test: TestResult): XmlNode {
  // `type` holds suture's words only: ActiveSupport, which GitLab's parser reads the XML with,
  // decodes an element whose type is `file`, `yaml` or `array` as that, or refuses it.
  const body = {
    '@_message': clean((test.message ?? test.status).slice(0, 1000)),
    '#text': clean(test.trace ?? test.message ?? ''),
  };
  switch (test.status) {
    case 'failed':
      return { failure: { ...body, '@_type': 'failure' } };
    case 'timeout':
      return { failure: { ...body, '@_type': 'timeout' } };
    case 'error':
    case 'crashed':
      return { error: { ...body, '@_type': test.status } };
    case 'skipped':
      return { skipped: { '@_message': clean(test.message ?? '') } };
    default:
      return {};
  }
}

const failing = (t: TestResult): boolean =>
  t.status === 'failed' || t.status === 'timeout' || t.status === 'error' || t.status === 'crashed';

/** A failed attempt as Maven Surefire writes it: `<{kind}Failure>` or `<{kind}Error>` with its trace. */
function attempt(t: TestResult): { element: 'Failure' | 'Error'; node: XmlNode } {
  const element = t.status === 'error' || t.status === 'crashed' ? 'Error' : 'Failure';
  const trace = clean(t.trace ?? t.message ?? '');
  return {
    element,
    node: {
      '@_message': clean((t.message ?? t.status).slice(0, 1000)),
      '@_type': t.status === 'failed' ? 'failure' : t.status,
      ...(trace ? { stackTrace: trace } : {}),
    },
  };
}

/**
 * The attempts of a test on the gated code besides its result, as Maven Surefire writes them
 * (read by Jenkins and GitLab): a flaky test passes with a `<flakyFailure>` (or `<flakyError>`)
 * for each attempt that failed; a test that failed again when re-run keeps its failure and gets a
 * `<rerunFailure>` for each re-run that failed.
 */
function attempts(test: TestResult, history: TestHistory | undefined): XmlNode {
  if (!history || (!history.flaky && !failing(test))) return {};
  const runs = history.flaky
    ? [...(history.first ? [history.first] : []), ...history.reruns]
    : history.reruns;
  const failed = runs.filter(failing);
  const prefix = history.flaky ? 'flaky' : 'rerun';
  const out: Record<string, XmlNode[]> = {};
  for (const a of failed) {
    const { element, node } = attempt(a);
    (out[`${prefix}${element}`] ??= []).push(node);
  }
  return out;
}

/**
 * The runs of one test on the unchanged tree: the first run's result, the flaky triage's re-runs
 * in order, and whether suture judged it flaky (it passed when re-run).
 */
export interface TestHistory {
  first?: TestResult;
  reruns: TestResult[];
  flaky: boolean;
}

/**
 * One `<testcase>`: name, classname and time as attributes, its outcome and what suture adds in
 * `system-out` (the file and line, the fix), since the Jenkins xunit schema (`junit-10.xsd`)
 * allows no `file`, `line` or `properties` in a test case. With `gitlab`, the case also has the
 * `file` attribute GitLab's parser reads (its test report links the file), which that schema
 * refuses. A flaky test is written as passed, with its failed attempts; a failing one with its
 * failed re-runs.
 */
export function testcase(
  repoRoot: string,
  project: ProjectReport,
  test: TestResult,
  note: TestNote | undefined,
  patch: string,
  history?: TestHistory,
  gitlab = false,
): XmlNode {
  const passedOnRerun =
    history?.flaky && failing(test) ? history.reruns.find((t) => t.status === 'passed') : undefined;
  const shown = passedOnRerun ?? test;
  const node: XmlNode = {
    '@_name': clean(test.name ?? test.id),
    '@_classname': classnameOf(repoRoot, project, test),
    ...(gitlab && test.file && !test.file.startsWith('<')
      ? { '@_file': repoPath(repoRoot, project.root, test.file) }
      : {}),
    '@_time': ((shown.durationMs ?? 0) / 1000).toFixed(3),
    ...outcome(shown),
    ...attempts(shown, history),
  };
  const out: string[] = [];
  if (test.file && shown.status !== 'passed' && shown.status !== 'skipped')
    out.push(`at ${repoPath(repoRoot, project.root, test.file)}${test.line ? `:${test.line}` : ''}`);
  if (note) {
    out.push(
      note.fixAvailable
        ? `validated fix available: ${patch} (not applied: suture ran in check mode)`
        : `healed by suture: see ${patch}`,
    );
    if (note.expectationChanged)
      out.push('expectation changed: the fix edits an expected value in a test; review it');
  }
  if (out.length) node['system-out'] = clean(out.join('\n'));
  return node;
}

/** A plugin that threw is an error of the run, with a test case of its own so CI shows it. */
export function pluginErrorCase(classname: string, e: PluginErrorEntry): XmlNode {
  return {
    '@_name': clean(`suture: ${e.plugin} failed in ${e.phase}`),
    '@_classname': classname,
    '@_time': '0',
    error: {
      '@_message': clean(e.message.slice(0, 1000)),
      '@_type': 'plugin-error',
      '#text': clean(pluginErrorLine(e)),
    },
  };
}
