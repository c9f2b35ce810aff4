#!/usr/bin/env node
// What recording per-test coverage costs a green pytest run (`suture run --record` against the same
// run without it), how large the selection record is, and, for a few seeded mutants of function
// bodies, how many tests `suture run --changed` runs against the whole suite and whether a test
// the whole suite fails was left out (it must never be). Prints figures; it is not a test.
//
//   node bench/selection-overhead.mjs [--repeats N]
//
// The project (python-sortedcontainers at a pinned commit) is read from a local git mirror
// (SUTURE_BENCH_MIRRORS, default /work/.mirror) or cloned from GitHub, as bench/real-projects.mjs does.
import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { benchArgs, linkSuture, materialise, median, run, SUTURE } from './lib/real-project.mjs';

const { repeats: REPEATS } = benchArgs();
const PROJECT = {
  name: 'python-sortedcontainers',
  repo: 'grantjenks/python-sortedcontainers',
  commit: '3ac358631f58c1347f1d6d2d92784117db0f38ed',
  runner: ['pytest', { env: { PYTHONPATH: 'src' } }],
};
// Function-body lines to break, one at a time: [file, text, replacement].
const MUTANTS = [
  [
    'src/sortedcontainers/sortedlist.py',
    '                pos -= 1\n                _lists[pos].append(value)',
    '                pos -= 0\n                _lists[pos].append(value)',
  ],
  ['src/sortedcontainers/sorteddict.py', 'key = self._list_pop(index)', 'key = self._list_pop(index - 1)'],
  ['src/sortedcontainers/sortedset.py', 'return value in self._set', 'return value not in self._set'],
];

function gate(dir, args) {
  const started = process.hrtime.bigint();
  const r = run(
    'node',
    [SUTURE, 'run', '--no-heal', '--json', '--reporter', 'json', '--config', 'bench.json', ...args],
    dir,
    {},
    true,
  );
  const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
  if (r.status !== 0 && r.status !== 1)
    throw new Error(`suture exited ${r.status}:\n${r.stderr.slice(-3000)}`);
  const report = JSON.parse(r.stdout);
  const project = report.projects[0];
  const initial = project.rounds.find((x) => x.kind === 'initial');
  return { wallMs, runMs: initial.durationMs, tests: initial.tests, selection: project.selection };
}

const dir = materialise(PROJECT);
linkSuture(dir);
try {
  writeFileSync(
    join(dir, 'bench.json'),
    JSON.stringify({
      projects: [{ name: 'sc', root: '.', runner: PROJECT.runner }],
      reporters: ['json'],
      workspace: 'in-place',
      sandbox: 'off',
      timeoutMs: 3_600_000,
    }),
  );
  // committed, as a project's config is: a config that differs from the commit runs every test
  run('git', ['add', 'bench.json', 'suture.config.json', 'suture.in-place.json'], dir);
  run(
    'git',
    ['-c', 'user.name=bench', '-c', 'user.email=bench@example.com', 'commit', '-qm', 'bench config'],
    dir,
  );
  gate(dir, []); // warm: the interpreter's caches, pytest's own
  const plain = [];
  const recorded = [];
  for (let i = 0; i < REPEATS; i++) {
    plain.push(gate(dir, []));
    recorded.push(gate(dir, ['--record']));
  }
  const tests = plain[0].tests.length;
  const p = median(plain.map((g) => g.runMs));
  const r = median(recorded.map((g) => g.runMs));
  const pw = median(plain.map((g) => g.wallMs));
  const rw = median(recorded.map((g) => g.wallMs));
  const store = join(dir, '.suture/selection/sc');
  const size = (d) => readdirSync(d).reduce((n, f) => n + statSync(join(d, f)).size, 0);
  console.log(`${PROJECT.name} @ ${PROJECT.commit.slice(0, 12)}: ${tests} tests, median of ${REPEATS}`);
  console.log(
    `  pytest run:  ${p.toFixed(0)} ms plain, ${r.toFixed(0)} ms recording (+${(((r - p) / p) * 100).toFixed(0)}%)`,
  );
  console.log(
    `  whole gate:  ${pw.toFixed(0)} ms plain, ${rw.toFixed(0)} ms recording (+${(((rw - pw) / pw) * 100).toFixed(0)}%)`,
  );
  console.log(
    `  record: ${(size(join(store, 'records')) / 1024).toFixed(0)} KiB, blobs ${(size(join(store, 'blobs')) / 1024).toFixed(0)} KiB; recorded: ${recorded.at(-1).selection?.recorded}`,
  );

  console.log('  mutants (a function body changed; --changed against the whole suite):');
  for (const [file, from, to] of MUTANTS) {
    const path = join(dir, file);
    const text = readFileSync(path, 'utf8');
    if (!text.includes(from)) {
      console.log(`    ${file}: mutant text not found, skipped`);
      continue;
    }
    writeFileSync(path, text.replace(from, to));
    const full = gate(dir, []);
    const changed = gate(dir, ['--changed']);
    writeFileSync(path, text);
    const failing = new Set(
      full.tests.filter((t) => t.status === 'failed' || t.status === 'error').map((t) => t.id),
    );
    const ran = new Set(changed.tests.map((t) => t.id));
    const missed = [...failing].filter((id) => !ran.has(id));
    const s = changed.selection;
    console.log(
      `    ${file}: ${failing.size} failing under the whole suite, ${ran.size}/${full.tests.length} run by --changed (${s.basis}${s.fallback ? `: ${s.fallback}` : ''}), missed ${missed.length}; ${changed.wallMs.toFixed(0)} ms vs ${full.wallMs.toFixed(0)} ms`,
    );
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
