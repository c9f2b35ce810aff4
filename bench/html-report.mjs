#!/usr/bin/env node
// The single-file report.html of @suture/reporter-html on a big run: 5,000 tests (a whole-suite run
// and a regression run of them), 100 failure groups healed in 200 attempts with their diffs. Prints
// the file's size (and gzipped), the time to render it in Node, and in Debian's chromium (headless,
// through playwright-core) the time to the page's first render and first contentful paint, and
// how long a filter click and a test search take to show their result.
//   node bench/html-report.mjs [--tests 5000] [--groups 100] [--runs 5]
// Needs the packages built (npm run build) and chromium (apt-get install -y chromium).
/* global document, requestAnimationFrame -- the functions given to page.evaluate run in the page */
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const TESTS = arg('tests', 5000);
const GROUPS = arg('groups', 100);
const RUNS = arg('runs', 5);
const CHROMIUM = process.env.SUTURE_CHROMIUM ?? '/usr/bin/chromium';

const dist = (pkg) => new URL(`../packages/${pkg}/dist/index.js`, import.meta.url);
for (const pkg of ['core', 'reporter-html'])
  if (!existsSync(dist(pkg))) {
    console.error(`html-report: packages/${pkg} is not built; run \`npm run build\` first`);
    process.exit(2);
  }
const { GateReportSchema } = await import(dist('core'));
const { renderReport } = await import(dist('reporter-html'));

const FILES = 250;
const file = (i) => `tests/test_module_${String(i % FILES).padStart(3, '0')}.py`;
const trace = (i) =>
  `def test_case_${i}():\n>       assert compute(${i}) == ${i * 2}\nE       assert ${i * 2 - 1} == ${i * 2}\nE        +  where ${i * 2 - 1} = compute(${i})\n\n${file(i)}:${10 + (i % 90)}: AssertionError\n`.repeat(
    3,
  );
const failing = new Set(Array.from({ length: GROUPS * 2 }, (_, k) => k * Math.floor(TESTS / (GROUPS * 2))));

function round(kind, healed) {
  return {
    kind,
    status: healed ? 'passed' : 'failed',
    command: 'python -m pytest -p suture_pytest_launch',
    durationMs: 61_000,
    tests: Array.from({ length: TESTS }, (_, i) => {
      const fails = !healed && failing.has(i);
      return {
        id: `${file(i)}::test_case_${i}`,
        file: file(i),
        line: 10 + (i % 90),
        status: fails ? 'failed' : i % 97 === 0 ? 'skipped' : 'passed',
        durationMs: 5 + (i % 40),
        ...(fails ? { message: `assert ${i * 2 - 1} == ${i * 2}`, trace: trace(i) } : {}),
      };
    }),
  };
}

function diff(g, replace) {
  return `--- a/src/module_${g}.py\n+++ b/src/module_${g}.py\n@@ -10,7 +10,7 @@ def compute(x):\n     """Doubles x, the slow way."""\n     total = 0\n     for _ in range(2):\n-        total += x - 1\n+        total += ${replace}\n     return total\n \n \n`;
}

function group(g) {
  const tests = [...failing].slice(g * 2, g * 2 + 2).map((i) => `${file(i)}::test_case_${i}`);
  const usage = (n) => ({
    model: 'claude-sonnet-4-5',
    inputTokens: 4200 + n,
    outputTokens: 380,
    costUsd: 0.0183,
    calls: 1,
  });
  return {
    failure: {
      id: `big:fp${g}`,
      kind: 'assertion',
      title: `AssertionError: assert ${g * 2 - 1} == ${g * 2}`,
      tests,
      location: { file: `src/module_${g}.py`, line: 14, symbol: 'compute' },
      evidence: trace(g),
      fingerprint: `fp${g}`,
      repairable: true,
    },
    outcome: 'healed',
    scope: {
      entries: [
        { file: tests[0].split('::')[0], role: 'test', reasons: ['the failing test'], depth: 0 },
        {
          file: `src/module_${g}.py`,
          symbols: ['compute'],
          role: 'source',
          reasons: ['called by the test (depth 1)', 'frame 1 of the traceback'],
          depth: 1,
        },
      ],
    },
    attempts: [
      {
        attempt: 1,
        fixer: '@suture/llm-claude-cli',
        verdict: 'failed-validation',
        rationale: 'the loop adds one too few',
        diff: diff(g, 'x + 1'),
        validation: {
          passed: false,
          durationMs: 900,
          stillFailing: tests.map((id) => ({ id, message: 'assert 3 == 2' })),
        },
        usage: usage(g),
        durationMs: 5200,
        startedAt: '2026-11-22T12:00:00.000Z',
      },
      {
        attempt: 2,
        fixer: '@suture/llm-claude-cli',
        verdict: 'healed',
        rationale: 'add x itself',
        diff: diff(g, 'x'),
        validation: { passed: true, durationMs: 880 },
        usage: usage(g + 1),
        durationMs: 4800,
        startedAt: '2026-11-22T12:00:06.000Z',
      },
    ],
  };
}

const failures = Array.from({ length: GROUPS }, (_, g) => group(g));
const totals = {
  tests: TESTS,
  passed: TESTS - Math.ceil(TESTS / 97),
  failed: 0,
  skipped: Math.ceil(TESTS / 97),
  failures: GROUPS,
  healed: GROUPS,
  stillFailing: 0,
  bugs: 0,
  flaky: 0,
  llmCalls: GROUPS * 2,
  inputTokens: GROUPS * 2 * 4200,
  outputTokens: GROUPS * 2 * 380,
  costUsd: GROUPS * 2 * 0.0183,
};
const report = GateReportSchema.parse({
  schemaVersion: 2,
  runId: '20261122-120000-bench',
  root: '/repo',
  startedAt: '2026-11-22T12:00:00.000Z',
  finishedAt: '2026-11-22T12:20:00.000Z',
  durationMs: 1_200_000,
  mode: 'check',
  projects: [
    {
      name: 'big',
      root: 'big',
      runner: '@suture/runner-pytest',
      status: 'healed',
      rounds: [round('initial', false), round('regression', true)],
      failures,
      totals,
      durationMs: 1_200_000,
    },
  ],
  totals,
  patch: failures.map((_, g) => diff(g, 'x')).join(''),
  exitCode: 1,
  files: Array.from({ length: FILES }, (_, i) => ({
    project: 'big',
    file: file(i),
    tests: Math.ceil(TESTS / FILES),
    failed: 0,
    errors: [],
    rounds: 2,
    attempts: 0,
    state: 'passed',
  })),
});

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (xs) =>
  `${median(xs).toFixed(0)} ms (min ${Math.min(...xs).toFixed(0)}, max ${Math.max(...xs).toFixed(0)})`;
const pad = (s) => s.padEnd(46);

const renders = [];
let html = '';
for (let i = 0; i < RUNS; i++) {
  const t = performance.now();
  html = renderReport(report, ['report.json', 'results.xml', 'fixes.patch']);
  renders.push(performance.now() - t);
}
const temp = await mkdtemp(join(tmpdir(), 'suture-bench-html-'));
const target = join(temp, 'report.html');
await writeFile(target, html);
const attempts = failures.reduce((n, f) => n + f.attempts.length, 0);
console.log(`report: ${TESTS} tests x 2 runs, ${GROUPS} failure groups, ${attempts} attempts with diffs`);
console.log(
  `${pad('report.html size')}${(html.length / 1024 / 1024).toFixed(2)} MB (${(gzipSync(html).length / 1024).toFixed(0)} kB gzipped)`,
);
console.log(`${pad('render in Node (renderReport)')}${fmt(renders)}`);

if (!existsSync(CHROMIUM)) {
  console.log(`chromium not found at ${CHROMIUM}: no browser figures (apt-get install -y chromium)`);
} else {
  const { chromium } = await import('playwright-core');
  const profile = await mkdtemp(join(tmpdir(), 'suture-bench-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
    viewport: { width: 1280, height: 900 },
  });
  const figures = { rendered: [], fcp: [], load: [], filter: [], search: [], more: [] };
  try {
    for (let i = 0; i < RUNS; i++) {
      const page = await context.newPage();
      await page.goto(pathToFileURL(target).href);
      await page.waitForSelector('html[data-rendered]');
      const t = await page.evaluate(async () => {
        await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
        const fcp = performance.getEntriesByType('paint').find((e) => e.name === 'first-contentful-paint');
        const nav = performance.getEntriesByType('navigation')[0];
        /** Time from a click to the frame after the re-render it caused. */
        const time = async (act) => {
          const start = performance.now();
          act();
          await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
          return performance.now() - start;
        };
        const filter = await time(() =>
          [...document.querySelectorAll('.filters button')]
            .find((b) => b.textContent.startsWith('Healed'))
            .click(),
        );
        const more = await time(() => document.querySelector('#failures button.more')?.click());
        const input = document.querySelector('#tests input[type=search]');
        const search = await time(() => {
          input.value = 'test_case_4999';
          input.dispatchEvent(new Event('input', { bubbles: true }));
        });
        return {
          rendered: performance.getEntriesByName('suture:rendered')[0].startTime,
          fcp: fcp ? fcp.startTime : NaN,
          load: nav.loadEventEnd,
          filter,
          more,
          search,
        };
      });
      for (const key of Object.keys(figures)) figures[key].push(t[key]);
      await page.close();
    }
  } finally {
    await context.close();
    await rm(profile, { recursive: true, force: true });
  }
  console.log(`chromium ${RUNS} loads of file://.../report.html (median, min, max):`);
  console.log(`${pad('  first render (the app mounted)')}${fmt(figures.rendered)}`);
  console.log(`${pad('  first contentful paint')}${fmt(figures.fcp)}`);
  console.log(`${pad('  load event end')}${fmt(figures.load)}`);
  console.log(`${pad('  filter click to next frame')}${fmt(figures.filter)}`);
  console.log(`${pad('  "show more" groups to next frame')}${fmt(figures.more)}`);
  console.log(`${pad(`  search over ${TESTS * 1} tests to next frame`)}${fmt(figures.search)}`);
}
await rm(temp, { recursive: true, force: true });
