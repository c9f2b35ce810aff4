#!/usr/bin/env node
// The copy-on-write workspace against the journaled in-place mode: a whole gate (initial run, the
// fix validated, the regression run) on a generated 300-test pytest suite and on a warm CMake +
// GoogleTest project, alternating the modes; then the journal's cost for a 10,000-file proposal
// (one manifest write per batch) against writing its manifest per file. Prints figures; it is not
// a test. The goal: the isolated workspace at most 1.1x the in-place gate.
//   node bench/workspace.mjs [repeats=5] [pytestTests=300] [cppSources=24]
// SUTURE_BENCH_ONLY=pytest|cpp|journal|guard runs one part; guard: what watching the user's tree
// costs a run (the snapshot before it and the comparison after), on a git tree of N files.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HealConfigSchema, runProcess } from '../packages/core/dist/index.js';
import {
  Journal,
  openWorkspace,
  runGate,
  takeSnapshot,
  undoChanges,
} from '../packages/core/dist/internal.js';
import { scriptedFixer, silentLogger } from '../packages/core/dist/testing/index.js';
import pytest from '../packages/runner-pytest/dist/index.js';
import ctest from '../packages/runner-ctest/dist/index.js';
import { commitFixture, writeAt } from '../packages/cli/test/harness/cli.mjs';

const REPEATS = Number(process.argv[2] ?? 5);
const PY_TESTS = Number(process.argv[3] ?? 300);
const CPP_SOURCES = Number(process.argv[4] ?? 24);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const range = (xs) => `${Math.min(...xs).toFixed(0)}-${Math.max(...xs).toFixed(0)} ms`;
const put = writeAt;
const git = commitFixture;

async function pythonProject() {
  const root = await mkdtemp(join(tmpdir(), 'suture-bench-ws-py-'));
  await put(root, 'pytest.ini', '[pytest]\npythonpath = .\n');
  await put(root, 'calc/__init__.py', '');
  await put(root, 'calc/ops.py', 'def add(a, b):\n    return a - b\n\n\ndef mul(a, b):\n    return a * b\n');
  await put(
    root,
    'tests/test_ops.py',
    'from calc.ops import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n',
  );
  const perFile = 50;
  for (let f = 0; f < Math.ceil((PY_TESTS - 1) / perFile); f++) {
    const n = Math.min(perFile, PY_TESTS - 1 - f * perFile);
    const body = Array.from(
      { length: n },
      (_, i) => `def test_case_${i}():\n    assert mul(${i}, 2) == ${i * 2}\n`,
    ).join('\n\n');
    await put(root, `tests/test_gen_${f}.py`, `from calc.ops import mul\n\n\n${body}`);
  }
  git(root);
  return {
    root,
    runner: pytest(),
    fix: {
      verdict: 'edits',
      rationale: 'add adds',
      edits: [{ file: 'calc/ops.py', search: 'return a - b', replace: 'return a + b' }],
    },
  };
}

async function cppProject() {
  const root = await mkdtemp(join(tmpdir(), 'suture-bench-ws-cpp-'));
  const sources = [];
  for (let s = 0; s < CPP_SOURCES; s++) {
    // Some template work per unit, so a rebuild costs what a real unit does.
    await put(
      root,
      `src/unit_${s}.cpp`,
      `#include <map>\n#include <string>\n#include <vector>\n#include "calc.h"\n\nint unit_${s}(int n) {\n  std::map<std::string, std::vector<int>> m;\n  for (int i = 0; i < n; ++i) m[std::to_string(i % 7)].push_back(i);\n  int total = 0;\n  for (auto& [k, v] : m) for (int x : v) total += x;\n  return total;\n}\n`,
    );
    sources.push(`src/unit_${s}.cpp`);
  }
  await put(
    root,
    'src/calc.h',
    `int add(int a, int b);\n${sources.map((_, s) => `int unit_${s}(int n);`).join('\n')}\n`,
  );
  await put(root, 'src/calc.cpp', '#include "calc.h"\n\nint add(int a, int b) {\n  return a - b;\n}\n');
  const tests = sources
    .map((_, s) => `TEST(Units, Unit${s}) {\n  EXPECT_EQ(unit_${s}(10), 45);\n}\n`)
    .join('\n');
  await put(
    root,
    'tests/calc_test.cpp',
    `#include <gtest/gtest.h>\n#include "calc.h"\n\nTEST(Calc, Add) {\n  EXPECT_EQ(add(2, 3), 5);\n}\n\n${tests}`,
  );
  await put(
    root,
    'CMakeLists.txt',
    `cmake_minimum_required(VERSION 3.16)\nproject(wsbench CXX)\nset(CMAKE_CXX_STANDARD 17)\nenable_testing()\nfind_package(GTest REQUIRED)\ninclude(GoogleTest)\nadd_library(calc src/calc.cpp ${sources.join(' ')})\ntarget_include_directories(calc PUBLIC src)\nadd_executable(calc_test tests/calc_test.cpp)\ntarget_link_libraries(calc_test calc GTest::gtest_main)\ngtest_discover_tests(calc_test)\n`,
  );
  git(root);
  return {
    root,
    runner: ctest({ parallel: 2 }),
    fix: {
      verdict: 'edits',
      rationale: 'add adds',
      edits: [{ file: 'src/calc.cpp', search: 'return a - b;', replace: 'return a + b;' }],
    },
  };
}

/** One check-mode gate over the project in `workspace`; returns its wall time and what it did. */
async function gateOnce(p, workspace) {
  const heal = HealConfigSchema.parse({ flakyReruns: 0, maxAttempts: 1 });
  /** Each round's kind and its runner's own duration, as the gate reports them. */
  const rounds = [];
  const t = performance.now();
  const report = await runGate({
    root: p.root,
    outputDir: join(p.root, '.suture', 'runs'),
    mode: 'check',
    projects: [
      {
        name: 'bench',
        root: p.root,
        runner: p.runner,
        analyzer: p.runner.analyzer(),
        timeoutMs: 900_000,
        heal,
      },
    ],
    fixers: [scriptedFixer([p.fix])],
    reporters: [{ name: 'rounds', onRoundEnd: (e) => void rounds.push([e.round.kind, e.round.durationMs]) }],
    concurrency: 1,
    logger: silentLogger,
    workspace,
    sandbox: workspace === 'in-place' ? 'off' : 'auto',
  });
  const ms = performance.now() - t;
  const outcome = report.projects[0].failures.map((f) => f.outcome).join(',');
  if (outcome !== 'healed')
    throw new Error(
      `the gate should heal add (${workspace}): ${outcome} ${report.error ?? ''} ${report.projects[0].error ?? ''} ${JSON.stringify(report.projects[0].rounds.map((r) => [r.kind, r.status, r.error, r.diagnostics?.slice(0, 2)]))}`,
    );
  const roundMs = (kind) => rounds.filter(([k]) => k === kind).reduce((n, [, d]) => n + d, 0);
  const parts = {
    initial: roundMs('initial'),
    validation: roundMs('retry'),
    regression: roundMs('regression'),
  };
  parts.rest = ms - parts.initial - parts.validation - parts.regression;
  return { ms, tests: report.totals.tests, isolation: report.isolation, parts };
}

async function compare(label, p, modes) {
  // Warm-up: builds, pyc and the views' caches settle in each mode before anything is timed.
  for (const m of modes) await gateOnce(p, m);
  const times = Object.fromEntries(modes.map((m) => [m, []]));
  const parts = Object.fromEntries(modes.map((m) => [m, []]));
  const info = {};
  for (let i = 0; i < REPEATS; i++) {
    const order = i % 2 === 0 ? modes : [...modes].reverse();
    for (const m of order) {
      const r = await gateOnce(p, m);
      times[m].push(r.ms);
      parts[m].push(r.parts);
      info[m] = r;
    }
  }
  console.log(
    `\n${label}: ${info[modes[0]].tests} tests, ${REPEATS} gates per mode (check mode: initial run, one fix validated, regression run)`,
  );
  const base = median(times['in-place']);
  // Each repeat runs every mode back to back: the median of those pairs' ratios is less swayed by
  // a machine whose speed drifts over the minutes the bench takes than the ratio of the medians.
  const paired = (m) => median(times[m].map((t, i) => t / times['in-place'][i]));
  for (const m of modes)
    console.log(
      `  ${m.padEnd(10)} median ${median(times[m]).toFixed(0).padStart(6)} ms  (${range(times[m])})  ${(median(times[m]) / base).toFixed(2)}x in-place (paired: ${paired(m).toFixed(2)}x)`,
    );
  // where each mode's time goes: the runner's own time per round, and the rest of the gate
  // (analysis, the workspace's opening as far as the runs do not hide it, pins, writes, its end)
  for (const m of modes) {
    const part = (k) => `${k} ${median(parts[m].map((x) => x[k])).toFixed(0)} ms`;
    console.log(`  ${m.padEnd(10)} ${['initial', 'validation', 'regression', 'rest'].map(part).join(', ')}`);
  }
  for (const m of modes) {
    const iso = info[m].isolation;
    console.log(
      `  ${m.padEnd(10)} ran as: ${iso.workspace}, sandbox ${iso.sandbox} (network ${iso.network ? 'own loopback' : 'host'}, ${iso.readOnly ? 'read-only outside' : 'writable outside'}, ${iso.processes})${iso.notes.length ? `; ${iso.notes.join('; ')}` : ''}`,
    );
  }
}

/** What opening and closing the isolated workspace costs alone, without a run: the sandbox holder's start and end. */
async function openCost(p, modes) {
  for (const mode of modes) {
    const open = [];
    const close = [];
    for (let i = 0; i <= 2 * REPEATS; i++) {
      const t = performance.now();
      const ws = await openWorkspace(p.root, { workspace: mode, sandbox: 'auto', writable: [] });
      const opened = performance.now();
      await ws.dispose();
      // the first opening probes the machine's support and is left out
      if (i === 0) continue;
      open.push(opened - t);
      close.push(performance.now() - opened);
    }
    console.log(
      `  ${mode.padEnd(10)} opening the workspace alone: median ${median(open).toFixed(0)} ms (${range(open)}), closing it ${median(close).toFixed(0)} ms`,
    );
  }
  // What each process a run starts costs in the sandbox (joining the run's PID namespace, in the
  // holder's namespaces), against the same process started directly; and what a run of one
  // process costs, its PID namespace's end included.
  const ws = await openWorkspace(p.root, { workspace: 'overlay', sandbox: 'auto', writable: [] });
  const once = () => runProcess('true', [], { cwd: p.root, timeoutMs: 10_000 });
  const timed = async (fn) => {
    const xs = [];
    for (let i = 0; i < 10 * REPEATS; i++) {
      const t = performance.now();
      await fn();
      xs.push(performance.now() - t);
      // the engine works between runs: the next run's namespace is made meanwhile
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return median(xs);
  };
  const direct = await timed(once);
  let sandboxed = 0;
  await ws.run(async () => {
    sandboxed = await timed(once);
  });
  const run = await timed(() => ws.run(once));
  await ws.dispose();
  console.log(
    `  a process started in the overlay's sandbox: median ${sandboxed.toFixed(1)} ms against ${direct.toFixed(1)} ms directly (\`true\`); a run of it ${run.toFixed(1)} ms`,
  );
}

async function journalCost(files, batched) {
  const root = await mkdtemp(join(tmpdir(), 'suture-bench-journal-'));
  await mkdir(join(root, 'src'));
  for (let i = 0; i < files; i += 2) await writeFile(join(root, `src/m${i}.py`), `v = 0  # ${i}\n`);
  const journal = await Journal.create(root, 'bench');
  const writes = Array.from({ length: files }, (_, i) => ({
    file: `src/m${i}.py`,
    content: `v = 1  # ${i}\n`,
  }));
  const t = performance.now();
  if (batched) await journal.prepare(writes);
  for (const w of writes) await journal.write(w.file, w.content);
  const ms = performance.now() - t;
  const r = performance.now();
  await journal.restore();
  const restoreMs = performance.now() - r;
  await journal.close();
  await rm(root, { recursive: true, force: true });
  return { ms, restoreMs };
}

const only = process.env.SUTURE_BENCH_ONLY;
if (!only || only === 'pytest') {
  const py = await pythonProject();
  await compare(`pytest suite, ${PY_TESTS} tests`, py, ['in-place', 'overlay', 'copy']);
  await openCost(py, ['overlay', 'copy']);
  await rm(py.root, { recursive: true, force: true });
}

if (!only || only === 'cpp') {
  const cpp = await cppProject();
  await compare(`warm CMake + GoogleTest project, ${CPP_SOURCES + 1} library units`, cpp, [
    'in-place',
    'overlay',
  ]);
  await rm(cpp.root, { recursive: true, force: true });
}

if (!only || only === 'journal')
  console.log('\njournal: a proposal of N files written through the journal, then restored');
for (const [n, batched] of [
  [1000, false],
  [1000, true],
  [10000, true],
]) {
  if (only && only !== 'journal') break;
  const r = await journalCost(n, batched);
  console.log(
    `  ${String(n).padStart(6)} files, ${batched ? 'one manifest write per batch' : 'manifest written per file   '}: ${(r.ms / 1000).toFixed(1).padStart(6)} s (${(r.ms / n).toFixed(2)} ms/file), restore ${(r.restoreMs / 1000).toFixed(1)} s`,
  );
}

/** A committed tree of `files` files in folders of 100, with a few changed and untracked ones. */
async function guardTree(files) {
  const root = await mkdtemp(join(tmpdir(), 'suture-bench-guard-'));
  for (let i = 0; i < files; i++) await put(root, `src/d${Math.floor(i / 100)}/m${i}.py`, `v = ${i}\n`);
  git(root);
  for (let i = 0; i < 5; i++) await writeFile(join(root, `src/d0/m${i}.py`), `v = -1  # in progress\n`);
  await writeFile(join(root, 'notes.txt'), 'untracked\n');
  // a tree as users have it: its index written after the files (none "racily clean", which git
  // would read whole on every status)
  await new Promise((r) => setTimeout(r, 1100));
  await runProcess('git', ['status'], { cwd: root });
  return root;
}

if (!only || only === 'guard') {
  console.log('\nguard: snapshot before a run and undo after it, on a git tree (no change made)');
  for (const files of [1000, 20000]) {
    const root = await guardTree(files);
    for (const watch of ['tracked', 'tree']) {
      const times = [];
      for (let i = 0; i < REPEATS; i++) {
        const t = performance.now();
        const snapshot = await takeSnapshot({ root, label: '', watch });
        await undoChanges(snapshot, { restore: true });
        times.push(performance.now() - t);
      }
      console.log(
        `  ${String(files).padStart(6)} files, ${watch.padEnd(7)}: median ${median(times).toFixed(0)} ms (${range(times)})`,
      );
    }
    await rm(root, { recursive: true, force: true, maxRetries: 5 });
  }
}
