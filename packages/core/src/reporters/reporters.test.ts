import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createBuiltinReporter } from './builtin.js';
import { consoleReporter } from './console.js';
import { renderJunit } from './junit.js';
import { markdownReporter, renderMarkdown } from './markdown.js';
import { sampleReport } from './sample-report.test-support.js';

let runDir: string;
beforeEach(async () => {
  runDir = await mkdtemp(join(tmpdir(), 'suture-reporters-'));
});
afterEach(async () => {
  await rm(runDir, { recursive: true, force: true });
});

const ctx = (): { runDir: string; root: string } => ({ runDir, root: '/repo' });
const builtin = (name: string, options: Record<string, unknown> = {}) => {
  const r = createBuiltinReporter(name, options, { stream: { write: () => true }, env: {} });
  if (!r) throw new Error(`no reporter ${name}`);
  return r;
};

describe('json reporter', () => {
  it('writes the whole report, round-tripping every attempt, with no path of the machine', async () => {
    const report = sampleReport();
    await builtin('json').onRunEnd!(report, ctx());
    const text = await readFile(join(runDir, 'report.json'), 'utf8');
    const written = JSON.parse(text);
    expect(written).toEqual({ ...report, root: '.', runDir: '.suture/runs/20261122-120000-abcd' });
    expect(text).not.toContain('/repo');
    expect(written.projects[0].failures[1].attempts).toHaveLength(2);
  });
  it('refuses unknown options', () => {
    expect(() => builtin('json', { fiel: 'x.json' })).toThrow(/fiel/);
  });
});

describe('junit reporter', () => {
  it('merges projects into one file with per-project suites and counts', () => {
    const xml = renderJunit(sampleReport());
    const doc = new XMLParser({
      ignoreAttributes: false,
      isArray: (name) => ['testsuite', 'testcase', 'property'].includes(name),
    }).parse(xml);
    const suites = doc.testsuites.testsuite;
    expect(suites.map((s: Record<string, string>) => s['@_name'])).toEqual(['py', 'cpp']);
    const py = suites[0];
    expect(py['@_tests']).toBe('4');
    expect(py['@_failures']).toBe('2');
    expect(py['@_skipped']).toBe('1');
    const typo = py.testcase.find(
      (c: Record<string, string>) => c['@_name'] === 'tests/test_a.py::test_typo',
    );
    // the class is the repository-relative test file; the schema allows no file or line on a case
    expect(typo['@_classname']).toBe('py.tests.test_a');
    expect(Object.keys(typo).filter((k) => /file|line|properties/.test(k))).toEqual([]);
    // check mode: the tree still fails; the fix waits in the patch, its expectation change flagged
    expect(typo['system-out']).toMatch(/^at py\/tests\/test_a\.py:7\nvalidated fix available: fixes\.patch/);
    expect(typo['system-out']).toMatch(/expectation changed/);
    expect(
      py.properties.property.map(
        (p: Record<string, unknown>) => `${String(p['@_name'])}=${String(p['@_value'])}`,
      ),
    ).toEqual([
      'suture.patch=fixes.patch',
      'suture.fix.available=py.tests.test_a tests/test_a.py::test_typo',
      'suture.expectationChanged=py.tests.test_a tests/test_a.py::test_typo',
    ]);
    const fixed = new XMLParser({ ignoreAttributes: false }).parse(
      renderJunit({ ...sampleReport(), mode: 'fix' }),
    );
    expect(JSON.stringify(fixed)).toMatch(/healed by suture: see fixes\.patch/);
    // a build failure that stops every test still shows up as an error, not as a test that ran
    const cpp = suites[1];
    expect(cpp['@_errors']).toBe('1');
    expect(cpp['@_tests']).toBe('0');
    expect(cpp.testcase[0].error['@_type']).toBe('build');
    expect(doc.testsuites['@_tests']).toBe('4');
    expect(doc.testsuites['@_skipped']).toBeUndefined();
  });
  it('strips characters XML 1.0 cannot carry', () => {
    const xml = renderJunit(sampleReport());
    expect(xml).not.toMatch(/[\u0000\u001b]/);
    expect(xml).toContain('red');
  });
});

describe('markdown reporter', () => {
  it('shows statuses, attempts, expectation changes, product bugs and the patch', () => {
    const md = renderMarkdown(sampleReport());
    expect(md).toMatch(/\| py \| ⚠️ failed_after_repair \| 4 \| 2 \| 1 \| 1 \| 1 \| 0 \|/);
    expect(md).toMatch(/Expectation changed/);
    expect(md).toMatch(/\*\*Product bug\*\*: discount is off by one/);
    expect(md).toMatch(/```diff\n--- a\/inv.py/);
    expect(md).toContain('setup.py \\| not allowed');
    expect(md).toMatch(/git apply .*fixes\.patch/);
    expect(md).toContain('LLM: 2 call(s), 1200 in / 300 out tokens, 5000 read from cache, $0.0123.');
  });
  it("says when a run's status was corrected from the runner's own results", () => {
    const report = sampleReport();
    report.projects[0]!.rounds[0] = {
      ...report.projects[0]!.rounds[0]!,
      status: 'failed',
      statusCorrected: {
        from: 'passed',
        reason: 'the runner said the run passed, but its results hold 1 failing test(s): a (failed)',
      },
    };
    expect(renderMarkdown(report)).toContain(
      'Status corrected, the initial run counts as failed: the runner said the run passed, but its results hold 1 failing test(s): a (failed)',
    );
    expect(renderMarkdown(sampleReport())).not.toContain('Status corrected');
  });
  it('appends to GITHUB_STEP_SUMMARY when set', async () => {
    const summary = join(runDir, 'step-summary.md');
    await writeFile(summary, '# earlier step\n');
    await markdownReporter({}, { GITHUB_STEP_SUMMARY: summary }).onRunEnd!(sampleReport(), ctx());
    const text = await readFile(summary, 'utf8');
    expect(text.startsWith('# earlier step\n## suture')).toBe(true);
    expect(await readFile(join(runDir, 'summary.md'), 'utf8')).toMatch(/^## suture/);
  });
});

describe('patch and bugs reporters', () => {
  it('writes fixes.patch and bug_report.json', async () => {
    const report = sampleReport();
    await builtin('patch').onRunEnd!(report, ctx());
    await builtin('bugs').onRunEnd!(report, ctx());
    const patch = await readFile(join(runDir, 'fixes.patch'), 'utf8');
    expect(patch.startsWith('# expectation changed (py): ')).toBe(true);
    expect(patch.endsWith(`\n\n${report.patch}`)).toBe(true);
    const bugs = JSON.parse(await readFile(join(runDir, 'bug_report.json'), 'utf8'));
    expect(bugs.bugs).toHaveLength(1);
    expect(bugs.bugs[0]).toMatchObject({
      project: 'py',
      expected: '10',
      actual: '9',
      fixer: '@suture/llm-claude-cli',
      tests: ['tests/test_a.py::test_logic'],
    });
  });
  it('writes no bug_report.json when there is no product bug', async () => {
    const report = sampleReport();
    report.projects[0]!.failures.splice(1, 1);
    await builtin('bugs').onRunEnd!(report, ctx());
    await expect(stat(join(runDir, 'bug_report.json'))).rejects.toThrow(/ENOENT/);
  });
});

describe('console reporter', () => {
  const capture = (isTTY: boolean) => {
    const chunks: string[] = [];
    return { stream: { isTTY, write: (c: string) => chunks.push(c) }, text: () => chunks.join('') };
  };
  it('prints plain lines without escape codes off a TTY', async () => {
    const out = capture(false);
    const r = consoleReporter({}, out.stream, {});
    const report = sampleReport();
    r.onRunStart!({ runId: 'x', root: '/repo', runDir, mode: 'check', projects: ['py', 'cpp'] });
    r.onTestResult!({ project: 'py', test: report.projects[0]!.rounds[0]!.tests[0]! });
    r.onProjectEnd!({ project: report.projects[0]! });
    await r.onRunEnd!(report, ctx());
    expect(out.text()).not.toContain('\x1b');
    expect(out.text()).toMatch(
      /■ py: failed_after_repair \(1 healed, 1 still failing, 1 bug\(s\), 0 flaky\)/,
    );
    expect(out.text()).toMatch(/product-bug assertion/);
    expect(out.text()).toContain('LLM: 2 call(s), 1200 in / 300 out tokens, 5000 read from cache, $0.0123');
    expect(out.text()).not.toContain('written to cache');
  });
  it('keeps a live status line on a TTY', () => {
    const out = capture(true);
    const r = consoleReporter({}, out.stream, {});
    r.onProjectStart!({ project: 'py', runner: 'pytest' });
    r.onTestResult!({ project: 'py', test: { id: 'a', status: 'passed' } });
    r.onTestResult!({ project: 'py', test: { id: 'b', status: 'failed' } });
    expect(out.text()).toContain('\r\x1b[2Kpy: 1 passed, 1 failed');
  });
});
