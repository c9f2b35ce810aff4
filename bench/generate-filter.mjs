#!/usr/bin/env node
// The keep-or-remove filter of `suture generate tests` on a fixed target in each language, with a
// scripted generator that writes a known mix: a test that compiles, passes and adds coverage; one
// that does not compile; one that fails; one that is flaky; one that adds no coverage. Prints, per
// target, whether the filter kept exactly the right test and removed each other one for the right
// reason, and the time it took. Real pytest + coverage.py, CMake + CTest + GoogleTest + gcovr, and
// Jest with Istanbul. Prints figures; it is not a test.
//
//   node bench/generate-filter.mjs [python|cpp|jest ...]
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { API_VERSION, HealConfigSchema, defineGenerator } from '../packages/core/dist/index.js';
import { runAutoRun } from '../packages/core/dist/internal.js';
import ctest from '../packages/runner-ctest/dist/index.js';
import jest from '../packages/runner-jest/dist/index.js';
import pytest from '../packages/runner-pytest/dist/index.js';

const HERE = fileURLToPath(new URL('.', import.meta.url));
const REPO = resolve(HERE, '..');
const FIXTURES = join(REPO, 'packages/cli/test/e2e/generate/fixtures');
const silent = { debug() {}, info() {}, warn() {}, error() {} };

/** Each target: its fixture, runner, and the five files of the mix with the verdict each must get. */
function targets(counterDir) {
  const counter = (name) => JSON.stringify(join(counterDir, name));
  const py = (name, body) => `from calc.ops import clamp\n\n\ndef test_${name}():\n${body}\n`;
  const cc = (name, body) =>
    `#include <gtest/gtest.h>\n#include <cstdio>\n#include "ops.h"\n\nTEST(Gen, ${name}) {\n${body}\n}\n`;
  const js = (name, body) =>
    `const { clamp } = require('../../src/ops');\n\ntest('${name}', () => {\n${body}\n});\n`;
  return [
    {
      name: 'python',
      fixture: 'python',
      runner: pytest(),
      target: 'calc/ops.py',
      language: 'python',
      files: [
        ['tests/gen/test_gen_kept.py', py('kept', '    assert clamp(-1, 0, 10) == 0'), 'kept'],
        ['tests/gen/test_gen_broken.py', py('broken', '    assert clamp(1, 0, 2) = 1'), 'does-not-compile'],
        ['tests/gen/test_gen_fails.py', py('fails', '    assert clamp(5, 0, 10) == 6'), 'fails'],
        [
          'tests/gen/test_gen_flaky.py',
          `import os\n${py(
            'flaky',
            `    p = ${counter('py')}\n    n = int(open(p).read()) + 1 if os.path.exists(p) else 1\n    open(p, 'w').write(str(n))\n    assert n % 2 == 1`,
          )}`,
          'flaky',
        ],
        ['tests/gen/test_gen_same.py', py('same', '    assert clamp(5, 0, 10) == 5'), 'no-coverage'],
      ],
    },
    {
      name: 'cpp',
      fixture: 'cpp',
      runner: ctest(),
      target: 'src/ops.cpp',
      language: 'cpp',
      files: [
        ['tests/gen/kept_test.cpp', cc('Kept', '  EXPECT_EQ(clamp(-1, 0, 10), 0);'), 'kept'],
        ['tests/gen/broken_test.cpp', cc('Broken', '  EXPECT_EQ(clamp(1, 0, 2) 1);'), 'does-not-compile'],
        ['tests/gen/fails_test.cpp', cc('Fails', '  EXPECT_EQ(clamp(5, 0, 10), 6);'), 'fails'],
        [
          'tests/gen/flaky_test.cpp',
          cc(
            'Flaky',
            `  const char* p = ${counter('cpp')};\n  int n = 0;\n  if (FILE* f = std::fopen(p, "r")) { if (std::fscanf(f, "%d", &n) != 1) n = 0; std::fclose(f); }\n  n++;\n  if (FILE* f = std::fopen(p, "w")) { std::fprintf(f, "%d", n); std::fclose(f); }\n  EXPECT_EQ(n % 2, 1);`,
          ),
          'flaky',
        ],
        ['tests/gen/same_test.cpp', cc('Same', '  EXPECT_EQ(clamp(5, 0, 10), 5);'), 'no-coverage'],
      ],
    },
    {
      name: 'jest',
      fixture: 'jest',
      runner: jest(),
      target: 'src/ops.js',
      language: 'javascript',
      files: [
        ['__tests__/gen/kept.test.js', js('kept', '  expect(clamp(-1, 0, 10)).toBe(0);'), 'kept'],
        [
          '__tests__/gen/broken.test.js',
          js('broken', '  expect(clamp(1, 0, 2).toBe(1);'),
          'does-not-compile',
        ],
        ['__tests__/gen/fails.test.js', js('fails', '  expect(clamp(5, 0, 10)).toBe(6);'), 'fails'],
        [
          '__tests__/gen/flaky.test.js',
          js(
            'flaky',
            `  const fs = require('fs');\n  const p = ${counter('js')};\n  const n = (fs.existsSync(p) ? Number(fs.readFileSync(p, 'utf8')) : 0) + 1;\n  fs.writeFileSync(p, String(n));\n  expect(n % 2).toBe(1);`,
          ),
          'flaky',
        ],
        ['__tests__/gen/same.test.js', js('same', '  expect(clamp(5, 0, 10)).toBe(5);'), 'no-coverage'],
      ],
    },
  ];
}

function scripted(language, files) {
  return defineGenerator({
    name: 'scripted-mix',
    apiVersion: API_VERSION,
    language,
    async generate() {
      return {
        files: files.map(([file, content]) => ({ file, content })),
        plan: { summary: 'the known mix', tests: files.map(([file]) => ({ file, test: file })) },
      };
    },
  });
}

const wanted = process.argv.slice(2);
const counterDir = mkdtempSync(join(tmpdir(), 'suture-bench-flaky-'));
mkdirSync(join(REPO, '.tmp'), { recursive: true });
const rows = [];
for (const t of targets(counterDir)) {
  if (wanted.length && !wanted.includes(t.name)) continue;
  // under the repository, so the Jest fixture finds the workspace's jest
  const root = mkdtempSync(join(REPO, '.tmp', `bench-generate-${t.name}-`));
  try {
    cpSync(join(FIXTURES, t.fixture), root, { recursive: true });
    const analyzer = t.runner.analyzer();
    const started = Date.now();
    const report = await runAutoRun({
      root,
      outputDir: join(root, '.suture', 'generate'),
      project: {
        name: t.name,
        root,
        runner: t.runner,
        analyzer,
        timeoutMs: 600_000,
        heal: HealConfigSchema.parse({}),
      },
      source: { kind: 'generator', generator: scripted(t.language, t.files) },
      target: [t.target],
      fixers: [],
      generations: 1,
      logger: silent,
    });
    const seconds = (Date.now() - started) / 1000;
    const got = Object.fromEntries(report.tests.map((x) => [x.file, x.verdict]));
    const right = t.files.filter(([file, , verdict]) => got[file] === verdict).length;
    rows.push({
      target: `${t.name}: ${t.target}`,
      generated: report.totals.generated,
      kept:
        report.tests
          .filter((x) => x.verdict === 'kept')
          .map((x) => x.file.split('/').pop())
          .join(', ') || '-',
      right: `${right}/${t.files.length}`,
      coverage: ['lines', 'branches']
        .map(
          (k) =>
            `${report.coverage.before[k].covered}/${report.coverage.before[k].total} -> ${report.coverage.after[k].covered}/${report.coverage.after[k].total}`,
        )
        .join(', '),
      seconds: seconds.toFixed(1),
      error: report.error ?? '',
      wrong: t.files
        .filter(([file, , verdict]) => got[file] !== verdict)
        .map(([file, , verdict]) => `${file}: ${got[file]} (expected ${verdict})`)
        .join('; '),
    });
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
rmSync(counterDir, { recursive: true, force: true });

console.log('| target | generated | kept | verdicts right | coverage (lines, branches) | time (s) |');
console.log('| --- | --- | --- | --- | --- | --- |');
for (const r of rows)
  console.log(`| ${r.target} | ${r.generated} | ${r.kept} | ${r.right} | ${r.coverage} | ${r.seconds} |`);
for (const r of rows) {
  if (r.error) console.log(`${r.target}: the run failed: ${r.error}`);
  if (r.wrong) console.log(`${r.target}: wrong verdicts: ${r.wrong}`);
}
