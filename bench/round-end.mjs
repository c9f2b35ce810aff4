#!/usr/bin/env node
// What a gate still has to do once the runner has returned: the check of its whole result, the
// redaction of the report, the report itself. A runner that replays a real run's results either
// streams each one while it "runs" (what suture's runners do: the engine checks and redacts each
// as it comes) or hands them all over at its end; each gate runs in a fresh Node process, as a
// `suture run` does, so the schema's code and the redactor start cold. Prints figures; not a test.
//
//   node bench/round-end.mjs [report.json] [--repeats N] [--run-ms MS]
//
// report.json is a suture report whose first round's results are replayed: a real project's, for
// instance one that `SUTURE_BENCH_KEEP=1 node bench/real-projects.mjs yaml-cpp` leaves under the
// kept tree's .suture/runs/. Without one, 1,063 results shaped like a GoogleTest binary's are made.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const HERE = fileURLToPath(new URL('.', import.meta.url));
const CORE = (entry) => pathToFileURL(resolve(HERE, '../packages/core/dist', entry)).href;

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(name);
  return at >= 0 ? Number(args.splice(at, 2)[1]) : fallback;
};
const REPEATS = option('--repeats', 7);
const RUN_MS = option('--run-ms', 1000);

/** One gate in this process: prints the ms from the runner's return to the gate's end. */
async function child(testsFile, stream) {
  const { runGate } = await import(CORE('internal.js'));
  const { HealConfigSchema, API_VERSION } = await import(CORE('index.js'));
  const { scriptAnalyzer } = await import(CORE('testing/index.js'));
  const tests = JSON.parse(readFileSync(testsFile, 'utf8'));
  const root = mkdtempSync(join(tmpdir(), 'suture-round-end-'));
  execFileSync('git', ['init', '-q'], { cwd: root });
  let returned = 0;
  const runner = {
    name: 'replay',
    apiVersion: API_VERSION,
    language: 'cpp',
    supportsSelection: false,
    async run(ctx) {
      // the results come over the run's length, as tests end
      const slices = 50;
      for (let i = 0; i < slices; i++) {
        await new Promise((r) => setTimeout(r, RUN_MS / slices));
        if (stream)
          for (const t of tests.slice((i * tests.length) / slices, ((i + 1) * tests.length) / slices))
            ctx.onTestResult?.(t);
      }
      returned = performance.now();
      // a copy, as a runner's final list is made apart from what it streamed
      return {
        status: 'passed',
        tests: structuredClone(tests),
        exitCode: 0,
        command: 'replay',
        durationMs: RUN_MS,
      };
    },
  };
  const quiet = { debug() {}, info() {}, warn() {}, error() {} };
  await runGate({
    root,
    outputDir: join(root, '.suture', 'runs'),
    mode: 'no-heal',
    projects: [
      {
        name: 'replay',
        root,
        runner,
        analyzer: scriptAnalyzer(),
        timeoutMs: 60_000,
        heal: HealConfigSchema.parse({}),
      },
    ],
    fixers: [],
    reporters: [],
    concurrency: 1,
    logger: quiet,
  });
  process.stdout.write(String(performance.now() - returned));
  rmSync(root, { recursive: true, force: true });
}

if (args[0] === '--child') {
  await child(args[1], args[2] === 'stream');
} else {
  const source = args[0];
  const tests = source
    ? JSON.parse(readFileSync(source, 'utf8')).projects[0].rounds[0].tests
    : Array.from({ length: 1063 }, (_, i) => {
        const name = `Suite${i % 40}.Case${i}`;
        return {
          id: `lib::test::${name}`,
          name,
          file: `test/suite_${i % 40}_test.cpp`,
          line: 1 + i,
          status: i % 130 === 0 ? 'skipped' : 'passed',
          durationMs: 0,
          details: { entry: 'lib::test', gtest: name },
        };
      });
  const dir = mkdtempSync(join(tmpdir(), 'suture-round-end-tests-'));
  const file = join(dir, 'tests.json');
  writeFileSync(file, JSON.stringify(tests));
  const times = { 'all at the end': [], streamed: [] };
  for (let i = 0; i < REPEATS; i++)
    for (const [mode, flag] of [
      ['all at the end', 'end'],
      ['streamed', 'stream'],
    ]) {
      const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--child', file, flag], {
        encoding: 'utf8',
      });
      if (r.status !== 0) throw new Error(`the gate failed:\n${r.stderr.slice(-3000)}`);
      times[mode].push(Number(r.stdout));
    }
  rmSync(dir, { recursive: true, force: true });
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  console.log(
    `round end after the runner returned, ${tests.length} results from ${source ?? 'a made-up GoogleTest binary'}, ${REPEATS} fresh processes per mode (median, range):`,
  );
  for (const [mode, xs] of Object.entries(times))
    console.log(
      `  ${mode.padEnd(15)} ${median(xs).toFixed(1)} ms (${Math.min(...xs).toFixed(1)}-${Math.max(...xs).toFixed(1)})`,
    );
}
