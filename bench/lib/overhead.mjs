// Shared by the runner overhead benchmarks: one generated project, timed through a suture runner
// and through the plain tool. Prints figures; it is not a test.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { silentLogger } from '../../packages/core/dist/testing/index.js';

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
// the machine may be shared: the spread says how much to trust the medians
const spread = (xs) => `(runs ${Math.min(...xs).toFixed(0)}-${Math.max(...xs).toFixed(0)} ms)`;

/** Times `plain` (a synchronous command) and returns milliseconds; a non-zero exit is expected when a test fails. */
export function timed(command) {
  const t = performance.now();
  try {
    command();
  } catch {
    // A failing command is timed all the same: the figure is wall time, not success.
  }
  return performance.now() - t;
}

async function viaRunner(runner, root, selection) {
  const workDir = await mkdtemp(join(tmpdir(), 'suture-bench-work-'));
  const t = performance.now();
  const r = await runner.run({
    root,
    workDir,
    timeoutMs: 600_000,
    signal: new AbortController().signal,
    logger: silentLogger,
    ...(selection ? { selection } : {}),
  });
  const ms = performance.now() - t;
  await rm(workDir, { recursive: true, force: true });
  if (r.status === 'error') throw new Error(`the runner failed: ${r.error}`);
  return { ms, tests: r.tests.length, failed: r.tests.filter((x) => x.status === 'failed').map((x) => x.id) };
}

/**
 * The project's test `failingId` fails only while SUTURE_BENCH_FAIL is set, so one build serves
 * both phases: the passing suite (plain tool against the runner, alternating which goes first so
 * neither always runs on the caches the other warmed), then a full run against a targeted re-run
 * of the failing test.
 */
export async function compareOverhead({ runner, root, plain, plainLabel, failingId, repeats, describe }) {
  const first = await viaRunner(runner, root); // warm-up: builds, transform and file caches settle
  plain();
  const plainTimes = [];
  const runnerTimes = [];
  for (let i = 0; i < repeats; i++) {
    if (i % 2 === 0) plainTimes.push(plain());
    runnerTimes.push((await viaRunner(runner, root)).ms);
    if (i % 2 === 1) plainTimes.push(plain());
  }
  process.env.SUTURE_BENCH_FAIL = '1';
  const full = [];
  const targeted = [];
  let failing = [];
  for (let i = 0; i < repeats; i++) {
    const r = await viaRunner(runner, root);
    full.push(r.ms);
    failing = r.failed;
    targeted.push((await viaRunner(runner, root, [failingId])).ms);
  }
  delete process.env.SUTURE_BENCH_FAIL;
  if (failing.join() !== failingId)
    throw new Error(`expected ${failingId} to fail, got: ${failing.join(', ') || 'none'}`);

  const [p, s, f, t] = [median(plainTimes), median(runnerTimes), median(full), median(targeted)];
  const width = Math.max(plainLabel.length, runner.name.length) + 2;
  console.log(`${describe(first.tests)}, ${repeats} repeats (medians)`);
  console.log(`  ${`${plainLabel}:`.padEnd(width)} ${p.toFixed(0)} ms ${spread(plainTimes)}`);
  console.log(`  ${`${runner.name}:`.padEnd(width)} ${s.toFixed(0)} ms ${spread(runnerTimes)}`);
  console.log(`  ${'overhead:'.padEnd(width)} ${(((s - p) / p) * 100).toFixed(1)} % (target <= 10 %)`);
  console.log(
    `  targeted re-run of 1 failing test: ${t.toFixed(0)} ms vs full run ${f.toFixed(0)} ms (${(f / t).toFixed(1)}x faster)`,
  );
}
