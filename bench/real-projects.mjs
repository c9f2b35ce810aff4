#!/usr/bin/env node
// suture on real open-source projects at pinned commits, against each project's own runner run
// natively. Prints, per project: test counts natively and under suture (they must be equal), the
// warm wall time of a gate against the native command (and of the same gate run in the tree without
// the sandbox, which shows what the isolation costs), whether the gate is within its bound (1.2x of
// native for CMake + CTest, 1.1x for pytest and Jest) and the least ratio Node's own start allows, a
// targeted re-run of one test against the full run; and suture's start-up time. Prints figures; it
// is not a test.
//
//   node bench/real-projects.mjs [name...] [--repeats N]
//
// The projects are read from local git mirrors (SUTURE_BENCH_MIRRORS, default /work/.mirror, laid
// out as <owner>+<repo>/repo) or cloned from GitHub when no mirror exists, and materialised at the
// pinned commit in a temporary folder outside this repository. Nothing of theirs is committed here.
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  benchArgs,
  finalRound,
  fmt,
  IN_PLACE,
  linkSuture,
  materialise,
  median,
  reportCounts,
  run,
  SUTURE,
  sutureGate,
  targetedRerun,
  timedMs,
} from './lib/real-project.mjs';

const HERE = fileURLToPath(new URL('.', import.meta.url));
const { repeats: REPEATS, only } = benchArgs();

const PY_ENV = { PYTHONDONTWRITEBYTECODE: '1' };

/** Each project: where it comes from, how its own runner runs it natively, and suture's config. */
const PROJECTS = [
  {
    name: 'python-sortedcontainers',
    repo: 'grantjenks/python-sortedcontainers',
    commit: '3ac358631f58c1347f1d6d2d92784117db0f38ed',
    runner: ['pytest', { env: { PYTHONPATH: 'src' } }],
    // as its tox.ini runs it: `pytest` with the project's testpaths (docs, src, tests) and doctests,
    // its cache on as by default (suture's runs keep theirs too, in the run folder)
    native: {
      env: { ...PY_ENV, PYTHONPATH: 'src' },
      warm: [['python3', '-m', 'pytest']],
      counts: (dir) => pytestCounts(dir, [], { PYTHONPATH: 'src' }),
    },
  },
  {
    name: 'tomli',
    repo: 'hukkin/tomli',
    commit: '920e20b1cf495b63f6d4a6aa3cd5e4ff25f5f5a7',
    runner: ['pytest', { env: { PYTHONPATH: 'src' } }],
    native: {
      env: { ...PY_ENV, PYTHONPATH: 'src' },
      warm: [['python3', '-m', 'pytest', 'tests']],
      counts: (dir) => pytestCounts(dir, ['tests'], { PYTHONPATH: 'src' }),
    },
  },
  {
    name: 'cJSON',
    repo: 'DaveGamble/cJSON',
    commit: 'a29814f285cc531c00223743ad3c55cd38c0dc56',
    runner: ['ctest', {}],
    native: cmakeNative(),
  },
  {
    name: 'tinyxml2',
    repo: 'leethomason/tinyxml2',
    commit: '3dcad8e3c38e7091ae3771bf63020027f91715ce',
    runner: ['ctest', {}],
    native: cmakeNative(),
  },
  {
    name: 'yaml-cpp',
    repo: 'jbeder/yaml-cpp',
    commit: 'c3f81127320662deb3e28f4da0a511f1faecd860',
    runner: ['ctest', { configureArgs: ['-DYAML_CPP_BUILD_TESTS=ON'] }],
    native: cmakeNative(['-DYAML_CPP_BUILD_TESTS=ON']),
  },
  {
    name: 'javascript-algorithms',
    repo: 'trekhleb/javascript-algorithms',
    commit: '85293e3e2b88f4d2ce330d956b139cf628aa1e82',
    runner: ['jest', {}],
    // its .npmrc sets engine-strict and its package.json asks for node 22; the suite runs on 20
    setup: (dir) =>
      run('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts', '--engine-strict=false'], dir),
    // as its `test` script runs it: plain `jest` (suture does not silence the tests' console either)
    native: {
      warm: [['npx', 'jest', '--ci']],
      counts: (dir) => jestCounts(dir),
    },
  },
  {
    // the last commit before it left Jest (Jest 29): its tests parse process.argv in-band, so
    // `jest --ci --json` fails them natively; it is run and counted as its `test` script runs it
    name: 'commander.js',
    repo: 'tj/commander.js',
    commit: '63eed4aa05435575d515311bb5efaf6d88b6be84',
    runner: ['jest', {}],
    setup: (dir) => run('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts'], dir),
    native: {
      warm: [['npx', 'jest']],
      counts: (dir) => jestSummaryCounts(run('npx', ['jest'], dir, {}, true).stderr),
    },
  },
];

function cmakeNative(configureArgs = []) {
  return {
    first: [['cmake', '-S', '.', '-B', 'build-native', '-G', 'Ninja', ...configureArgs]],
    warm: [
      ['cmake', '--build', 'build-native'],
      ['ctest', '--test-dir', 'build-native', '-j2'],
    ],
    counts: (dir) => ctestCounts(dir),
  };
}

function xmlCounts(text) {
  const cases = [...text.matchAll(/<testcase\b[^>]*?(\/>|>([\s\S]*?)<\/testcase>)/g)];
  let failed = 0;
  let skipped = 0;
  for (const c of cases) {
    const body = c[2] ?? '';
    if (/<(failure|error)\b/.test(body)) failed++;
    else if (/<skipped\b/.test(body) || /status="(notrun|disabled)"/.test(c[0])) skipped++;
  }
  return { tests: cases.length, passed: cases.length - failed - skipped, failed, skipped };
}

function pytestCounts(dir, paths, env) {
  const xml = join(dir, '.bench-native.xml');
  run(
    'python3',
    ['-m', 'pytest', '-q', '-p', 'no:cacheprovider', `--junitxml=${xml}`, ...paths],
    dir,
    { ...PY_ENV, ...env },
    true,
  );
  const counts = xmlCounts(readFileSync(xml, 'utf8'));
  rmSync(xml);
  return counts;
}

/**
 * CTest entries, each GoogleTest binary counted by its cases (GTEST_OUTPUT writes one XML per
 * binary) and each Unity program by its tests (its `file:line:test:PASS` lines in CTest's verbose
 * output), as suture counts them.
 */
function ctestCounts(dir) {
  const gtestDir = join(dir, 'build-native', 'gtest-xml');
  rmSync(gtestDir, { recursive: true, force: true });
  mkdirSync(gtestDir, { recursive: true });
  const junit = join(dir, 'build-native', 'ctest.xml');
  const verbose = run(
    'ctest',
    ['--test-dir', 'build-native', '-j2', '-V', '--output-junit', junit],
    dir,
    { GTEST_OUTPUT: `xml:${gtestDir}/` },
    true,
  ).stdout;
  const counts = xmlCounts(readFileSync(junit, 'utf8'));
  // each gtest binary replaces its one entry by its cases
  for (const f of readdirSync(gtestDir)) {
    const g = xmlCounts(readFileSync(join(gtestDir, f), 'utf8'));
    replaceEntry(counts, g.failed > 0 ? 'failed' : 'passed', g);
  }
  // each Unity program (one that printed Unity's summary) replaces its entry by its tests
  const unity = new Map();
  for (const m of verbose.matchAll(/^(\d+): .+?:\d+:\w+:(PASS|FAIL|IGNORE)\b/gm)) {
    const c = unity.get(m[1]) ?? { tests: 0, passed: 0, failed: 0, skipped: 0 };
    c.tests++;
    c[m[2] === 'PASS' ? 'passed' : m[2] === 'FAIL' ? 'failed' : 'skipped']++;
    unity.set(m[1], c);
  }
  for (const m of verbose.matchAll(/^(\d+): \d+ Tests (\d+) Failures \d+ Ignored/gm)) {
    const c = unity.get(m[1]);
    if (c) replaceEntry(counts, Number(m[2]) > 0 ? 'failed' : 'passed', c);
  }
  return counts;
}

function replaceEntry(counts, entryStatus, cases) {
  counts.tests += cases.tests - 1;
  counts[entryStatus] -= 1;
  for (const k of ['passed', 'failed', 'skipped']) counts[k] += cases[k];
}

function jestCounts(dir) {
  const out = join(dir, '.bench-jest.json');
  run('npx', ['jest', '--ci', '--silent', '--json', `--outputFile=${out}`], dir, {}, true);
  const j = JSON.parse(readFileSync(out, 'utf8'));
  rmSync(out);
  return {
    tests: j.numTotalTests,
    passed: j.numPassedTests,
    failed: j.numFailedTests,
    skipped: j.numPendingTests + j.numTodoTests,
  };
}

/** Counts from the summary a plain `jest` prints (`Tests: 1 failed, 2 skipped, 5 passed, 8 total`). */
function jestSummaryCounts(output) {
  const line = /^Tests:\s+(.*)$/m.exec(output)?.[1];
  if (!line) throw new Error(`no "Tests:" summary in Jest's output:\n${output.slice(-2000)}`);
  const n = (word) => Number(new RegExp(`(\\d+) ${word}`).exec(line)?.[1] ?? 0);
  return { tests: n('total'), passed: n('passed'), failed: n('failed'), skipped: n('skipped') + n('todo') };
}

// figures from a machine other work shares are only comparable at a similar load
const loadBefore = loadavg()
  .map((l) => l.toFixed(1))
  .join(' ');
const rows = [];
for (const project of PROJECTS) {
  if (only.length > 0 && !only.some((o) => project.name.includes(o))) continue;
  console.error(`== ${project.name} @ ${project.commit.slice(0, 12)}`);
  let dir;
  try {
    dir = materialise(project);
    project.setup?.(dir);
    linkSuture(dir);
    const env = project.native.env ?? {};
    for (const [cmd, ...argv] of project.native.first ?? []) run(cmd, argv, dir, env);
    for (const [cmd, ...argv] of project.native.warm) run(cmd, argv, dir, env, true); // cold build, caches
    const native = project.native.counts(dir);
    const cold = performance.now();
    const coldReport = sutureGate(dir); // cold: suture's own build folder
    const coldMs = performance.now() - cold;
    const coldState = coldReport.projects[0].status;
    if (coldState !== 'completed' && coldState !== 'failed')
      console.error(`   the cold gate ended ${coldState}: ${finalRound(coldReport).error ?? ''}`);
    const nativeTimes = [];
    const sutureTimes = [];
    const inPlaceTimes = [];
    /** What a gate spent outside its runner: Node's start, the engine's, and its reports. */
    const outsideTimes = [];
    let report = coldReport;
    for (let i = 0; i < REPEATS; i++) {
      nativeTimes.push(
        timedMs(() => project.native.warm.forEach(([cmd, ...argv]) => run(cmd, argv, dir, env, true))),
      );
      const wall = timedMs(() => (report = sutureGate(dir)));
      sutureTimes.push(wall);
      outsideTimes.push(wall - report.projects[0].rounds.reduce((ms, r) => ms + r.durationMs, 0));
      inPlaceTimes.push(timedMs(() => sutureGate(dir, IN_PLACE)));
    }
    // counted on a warm gate: a cold one may have been cut by the run's limit while it built
    const round = finalRound(report);
    const suture = reportCounts(report);
    const equal = JSON.stringify(native) === JSON.stringify(suture);
    if (!equal)
      // a test of the project's own that fails now and then natively too shows up here by name
      for (const test of round.tests.filter((x) => x.status !== 'passed' && x.status !== 'skipped'))
        console.error(`   under suture, ${test.status}: ${test.id}: ${(test.message ?? '').split('\n')[0]}`);
    const id = round.tests.find((x) => x.status === 'passed')?.id;
    const rerun = id ? await targetedRerun(project, dir, [id], REPEATS) : undefined;
    rows.push({
      project: project.name,
      native: fmt(native),
      suture: fmt(suture),
      equal: equal ? 'yes' : 'NO',
      nativeMs: median(nativeTimes),
      // each repeat's gate against the native run just before it: a machine that slows down or
      // speeds up over the repeats moves both alike
      paired: median(sutureTimes.map((ms, i) => ms / nativeTimes[i])),
      sutureMs: median(sutureTimes),
      inPlaceMs: median(inPlaceTimes),
      outsideMs: median(outsideTimes),
      coldMs,
      rerun,
      bound: project.runner[0] === 'ctest' ? 1.2 : 1.1,
    });
  } catch (error) {
    console.error(`   failed: ${error.message}`);
    rows.push({ project: project.name, error: error.message.split('\n')[0] });
  } finally {
    if (dir && !process.env.SUTURE_BENCH_KEEP) rmSync(dir, { recursive: true, force: true });
    else if (dir) console.error(`   kept ${dir}`);
  }
}

const startup = (argv, env) =>
  median(Array.from({ length: 7 }, () => timedMs(() => run('node', argv, HERE, env))));
const nodeMs = startup(['-e', '0']);
const versionMs = startup([SUTURE, '--version']);
// what `suture run` loads before it reads the config: the engine and its contracts
const ENGINE = pathToFileURL(resolve(HERE, '../packages/core/dist/internal.js')).href;
const engineMs = startup(['--input-type=module', '-e', `await import(${JSON.stringify(ENGINE)})`]);
// Node reads NODE_EXTRA_CA_CERTS's certificates as it starts, in every process: suture, Jest and
// each of Jest's workers pay it alike, natively and under suture
const extraCerts = process.env.NODE_EXTRA_CA_CERTS;
const bareNodeMs = extraCerts ? startup(['-e', '0'], { NODE_EXTRA_CA_CERTS: '' }) : undefined;

console.log(`\nreal projects, ${REPEATS} repeats (medians); counts are tests (passed/failed/skipped)`);
console.log(
  `load average ${loadBefore} before, ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')} after\n`,
);
// The bound a warm gate is held to (1.2x of native for CMake + CTest, 1.1x for pytest and Jest),
// and the least any gate run by a Node process can reach: native time plus Node's own start
// (`node -e 0`, measured below), with nothing of suture loaded or done.
console.log(
  '| project | native counts | suture counts | equal | warm native | warm suture | ratio (paired) | bound | Node start alone | outside the runner | in place, no sandbox | ratio | re-run 1 test vs full (runner) |',
);
console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|');
for (const r of rows) {
  if (r.error) {
    console.log(`| ${r.project} | error: ${r.error} | | | | | | | | | | | |`);
    continue;
  }
  const rerun = r.rerun ? `${r.rerun.one.toFixed(0)} ms vs ${r.rerun.full.toFixed(0)} ms` : 'n/a';
  const ms = (x) => `${x.toFixed(0)} ms`;
  const ratio = (x) => `${(x / r.nativeMs).toFixed(2)}x`;
  const bound = `${r.bound}x: ${r.paired <= r.bound ? 'met' : 'not met'}`;
  console.log(
    `| ${r.project} | ${r.native} | ${r.suture} | ${r.equal} | ${ms(r.nativeMs)} | ${ms(r.sutureMs)} | ${ratio(r.sutureMs)} (${r.paired.toFixed(2)}x) | ${bound} | ${ratio(r.nativeMs + nodeMs)} | ${ms(r.outsideMs)} | ${ms(r.inPlaceMs)} | ${ratio(r.inPlaceMs)} | ${rerun} |`,
  );
}
console.log(
  `\nstart-up: \`suture --version\` ${versionMs.toFixed(0)} ms against \`node -e 0\` ${nodeMs.toFixed(0)} ms (${(versionMs / nodeMs).toFixed(1)}x); a Node process that loads the engine (@suture/core/internal) ${engineMs.toFixed(0)} ms, ${(engineMs - nodeMs).toFixed(0)} ms more`,
);
if (bareNodeMs !== undefined)
  console.log(
    `NODE_EXTRA_CA_CERTS is set (${extraCerts}): \`node -e 0\` takes ${bareNodeMs.toFixed(0)} ms without it, so each Node process started here pays ${(nodeMs - bareNodeMs).toFixed(0)} ms for it`,
  );
