// The loop of the per-runner benchmarks on real projects (go-projects, cargo-projects,
// vitest-projects): for each project at its pinned commit, in a temporary folder outside this
// repository, the test counts of its own runner run natively against those of suture's report,
// the median warm wall time of `suture run --no-heal` against the native command, a targeted
// re-run of one test through the runner against its full run and, where the project names a bug,
// a heal of that one-line bug by an oracle fixer that proposes the original file; then a table.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  finalRound,
  fmt,
  linkSuture,
  materialise,
  median,
  reportCounts,
  run,
  sutureConfig,
  sutureGate,
  targetedRerun,
  timedMs,
} from './real-project.mjs';

const ORACLE = resolve(fileURLToPath(new URL('.', import.meta.url)), 'real-bugs-oracle.mjs');
const HEAL_CONFIG = 'suture.heal.json';
/** The gate's bound against native, held on suites whose warm native run takes longer than this. */
const BOUND = 1.1;
const LONG_SUITE_MS = 5_000;

/** A leaf test to re-run alone: passed, and no other test's id starts with its own (no subtests). */
function leafTest(round) {
  const ids = round.tests.map((t) => t.id);
  return round.tests.find(
    (t) => t.status === 'passed' && !ids.some((id) => id !== t.id && id.startsWith(`${t.id}/`)),
  )?.id;
}

/**
 * Puts the project's one-line bug in, gates it with the oracle fixer in check mode, and puts the
 * original file back. The oracle proposes the file as it was, whole, when it is in the request's
 * scope (bench/lib/real-bugs-oracle.mjs).
 */
function heal(project, dir, runner = project.runner) {
  const { file, search, replace } = project.bug;
  const path = join(dir, file);
  const original = readFileSync(path, 'utf8');
  if (original.split(search).length !== 2) throw new Error(`the bug's line is not once in ${file}`);
  const side = mkdtempSync(join(tmpdir(), `suture-real-oracle-${project.name}-`));
  try {
    writeFileSync(join(side, 'truth.json'), JSON.stringify({ files: { [file]: original } }));
    const rel = relative(dir, ORACLE);
    const config = sutureConfig(
      { ...project, runner },
      {
        fixers: [
          [
            rel.startsWith('.') ? rel : `./${rel}`,
            { truth: join(side, 'truth.json'), log: join(side, 'log.jsonl') },
          ],
        ],
        heal: { maxAttempts: 1, flakyReruns: 0 },
      },
    );
    writeFileSync(join(dir, HEAL_CONFIG), JSON.stringify(config, null, 2));
    writeFileSync(path, original.replace(search, replace));
    let report;
    const ms = timedMs(() => (report = sutureGate(dir, HEAL_CONFIG, { heal: true })));
    const p = report.projects[0];
    const initial = p.rounds.find((r) => r.kind === 'initial') ?? p.rounds[0];
    const failedFirst = initial.tests.filter((t) => t.status === 'failed' || t.status === 'error').length;
    const asked = readFileSync(join(side, 'log.jsonl'), 'utf8').split('\n').filter(Boolean).length;
    const built = p.rounds
      .filter((r) => r.kind !== 'initial')
      .find((r) => r.status === 'failed' && r.tests.length === 0);
    return { status: p.status, ms, failedFirst, asked, file, emptyRound: built?.kind };
  } finally {
    writeFileSync(path, original);
    rmSync(side, { recursive: true, force: true });
  }
}

/**
 *   projects: [{ name, repo, commit, runner: [name, options], setup?(dir), native: { env?, warm:
 *     [[cmd, ...argv]], counts(dir) }, bug?: { file, search, replace } }]
 *   title: the table's heading; exclude: build folders for .git/info/exclude
 */
export async function benchProjects({ title, projects, repeats, only, exclude = [] }) {
  const loadBefore = loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
  const rows = [];
  for (const project of projects) {
    if (only.length > 0 && !only.some((o) => project.name.includes(o))) continue;
    console.error(`== ${project.name} @ ${project.commit.slice(0, 12)}`);
    let dir;
    const row = { project: project.name, commit: project.commit.slice(0, 12) };
    rows.push(row);
    try {
      dir = materialise(project, { exclude: [...exclude, HEAL_CONFIG] });
      project.setup?.(dir);
      linkSuture(dir);
      const env = project.native.env ?? {};
      const warm = () => project.native.warm.forEach(([cmd, ...argv]) => run(cmd, argv, dir, env, true));
      warm(); // the cold build, the caches
      const native = project.native.counts(dir);
      console.error(`   native ${fmt(native)}`);
      let report = sutureGate(dir); // cold: suture's own build folder, if it has one
      const nativeTimes = [];
      const sutureTimes = [];
      for (let i = 0; i < repeats; i++) {
        nativeTimes.push(timedMs(warm));
        sutureTimes.push(timedMs(() => (report = sutureGate(dir))));
      }
      const round = finalRound(report);
      const suture = reportCounts(report);
      const equal = JSON.stringify(native) === JSON.stringify(suture);
      console.error(`   suture ${fmt(suture)} (${report.projects[0].status})`);
      if (!equal)
        for (const test of round.tests.filter((x) => x.status !== 'passed' && x.status !== 'skipped'))
          console.error(
            `   under suture, ${test.status}: ${test.id}: ${(test.message ?? '').split('\n')[0]}`,
          );
      if (round.error) console.error(`   the round's error: ${round.error}`);
      Object.assign(row, {
        native: fmt(native),
        suture: fmt(suture),
        equal,
        nativeMs: median(nativeTimes),
        sutureMs: median(sutureTimes),
        // each repeat's gate against the native run just before it
        paired: median(sutureTimes.map((ms, i) => ms / nativeTimes[i])),
      });
      const id = leafTest(round);
      if (id) {
        console.error(`   re-run of ${id}`);
        row.rerun = { id, ...(await targetedRerun(project, dir, [id], repeats)) };
      }
      if (project.bug) {
        console.error(`   heal of a bug in ${project.bug.file}`);
        row.heals = [{ label: '', ...heal(project, dir) }];
        // the same heal with other runner options (a setting that works around a finding)
        for (const [label, options] of project.bug.alsoWith ?? []) {
          console.error(`   heal of the bug with ${label}`);
          row.heals.push({ label, ...heal(project, dir, [project.runner[0], options]) });
        }
      }
    } catch (error) {
      console.error(`   failed: ${error.message}`);
      row.error = error.message.split('\n')[0];
    } finally {
      if (dir && !process.env.SUTURE_BENCH_KEEP) rmSync(dir, { recursive: true, force: true });
      else if (dir) console.error(`   kept ${dir}`);
    }
  }

  const ms = (x) => `${x.toFixed(0)} ms`;
  console.log(`\n${title}, ${repeats} repeats (medians); counts are tests (passed/failed/skipped)`);
  console.log(
    `load average ${loadBefore} before, ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')} after\n`,
  );
  console.log(
    `| project | commit | native counts | suture counts | equal | warm native | warm suture --no-heal | ratio (paired) | goal <= ${BOUND}x on suites > 5 s | re-run 1 test vs full (runner) | heal of a one-line bug (oracle) |`,
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|---|');
  for (const r of rows) {
    if (r.native === undefined) {
      console.log(`| ${r.project} | ${r.commit} | error: ${r.error} | | ✗ | | | | | | |`);
      continue;
    }
    const goal =
      r.nativeMs > LONG_SUITE_MS
        ? r.paired <= BOUND
          ? 'met'
          : 'not met'
        : `n/a (${(r.nativeMs / 1000).toFixed(1)} s suite)`;
    const rerun = r.rerun
      ? `${ms(r.rerun.one)} vs ${ms(r.rerun.full)} (${r.rerun.ran} test${r.rerun.ran === 1 ? '' : 's'} ran)`
      : 'n/a';
    const h = r.heals
      ? r.heals
          .map(
            (x) =>
              `${x.label ? `${x.label}: ` : ''}${x.status === 'healed' ? 'healed' : `not healed (${x.status})`}, ${x.failedFirst} failed first, ${(x.ms / 1000).toFixed(1)} s`,
          )
          .join('; ')
      : r.error
        ? `error: ${r.error}`
        : 'n/a';
    console.log(
      `| ${r.project} | ${r.commit} | ${r.native} | ${r.suture} | ${r.equal ? '✓' : '✗'} | ${ms(r.nativeMs)} | ${ms(r.sutureMs)} | ${(r.sutureMs / r.nativeMs).toFixed(2)}x (${r.paired.toFixed(2)}x) | ${goal} | ${rerun} | ${h} |`,
    );
  }
  for (const r of rows) if (r.rerun) console.log(`re-run of ${r.project}: ${r.rerun.id}`);
  for (const r of rows)
    for (const x of r.heals ?? [])
      console.log(
        `heal of ${r.project}${x.label ? ` with ${x.label}` : ''}: one line of ${x.file} changed; the oracle was asked ${x.asked} time(s)${x.emptyRound ? `; a ${x.emptyRound} round failed with no test result and no diagnostic` : ''}`,
      );
  return rows;
}
