#!/usr/bin/env node
// Fault localization of the analyzers, measured with seeded mutants: one-token bugs (a flipped
// comparison, an off-by-one) in the functions of real projects at pinned commits and of generated
// multi-file projects per language. Each mutant runs the project's real test runner; the real
// analyzer groups the failures and scopes each group. Prints per set: mutants, groups per mutant,
// scope recall (the buggy function in the scope), top-1 and top-3 (its rank among the scope's
// ranked functions), how often the buggy line is in the source slices a fixer gets, the median
// characters sent, and the median analysis time per failure, cold (a fresh analyzer) and warm.
// Prints figures; it is not a test. Build first.
//
//   node bench/localization.mjs [set...] [--all] [--mutants N] [--seed S]
//
// By default every set but yaml-cpp (its build takes long: name it or pass --all) with a few
// mutants each, about 15 minutes on a loaded 2-core machine; --mutants N takes N from every set.
//
// Real projects come from local git mirrors (SUTURE_BENCH_MIRRORS, default /work/.mirror, laid out
// as <owner>+<repo>/repo) or GitHub, materialised at the pinned commit in a temporary folder
// outside this repository; nothing of theirs is committed here.
import { execFileSync, spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateCpp, generateJs, generatePython } from './lib/localization-generated.mjs';
import { baselineFailures, measureMutant, runOnce, TOKEN_BUDGET } from './lib/localization-measure.mjs';
import { mutantsOf, rng, shuffle } from './lib/localization-mutants.mjs';

const MIRRORS = process.env.SUTURE_BENCH_MIRRORS ?? '/work/.mirror';
const REPO = resolve(fileURLToPath(new URL('.', import.meta.url)), '..');
/** Where @babel/preset-env is installed once for a real project whose Babel config needs it. */
const BABEL = process.env.SUTURE_BENCH_BABEL ?? join(tmpdir(), 'suture-bench-babel');
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(name);
  return at >= 0 ? Number(args.splice(at, 2)[1]) : fallback;
};
const MUTANTS = option('--mutants', undefined);
const SEED = option('--seed', 23);
const ALL = args.includes('--all');
const only = args.filter((a) => a !== '--all');

const pytest = async (options = {}) =>
  (await import('../packages/runner-pytest/dist/index.js')).default(options);
const ctest = async (options = {}) =>
  (await import('../packages/runner-ctest/dist/index.js')).default(options);
const jest = async (options = {}) => (await import('../packages/runner-jest/dist/index.js')).default(options);

/** Jest, ts-jest and babel-jest from this repository, for a project materialised outside it. */
function linkNodeModules(dir) {
  symlinkSync(join(REPO, 'node_modules'), join(dir, 'node_modules'), 'dir');
}

/** A C/C++ mutant is worth a rebuild when a test names its function. */
function namedInTests(root, testDirs) {
  const text = testDirs
    .flatMap((d) => files(root, d, /\.(c|cc|cpp|h)$/))
    .map((f) => readFileSync(join(root, f), 'utf8'))
    .join('\n');
  return (_file, symbol) => new RegExp(`\\b${symbol.split('.').pop()}\\b`).test(text);
}

/** Each set: how to get the project, its runner, the files mutants go into, and how many by default. */
const SETS = [
  {
    name: 'python-sortedcontainers',
    language: 'python',
    real: { repo: 'grantjenks/python-sortedcontainers', commit: '3ac358631f58c1347f1d6d2d92784117db0f38ed' },
    runner: () => pytest({ env: { PYTHONPATH: 'src' }, args: ['tests'] }),
    sources: (root) => files(root, 'src', /\.py$/),
    mutants: 2,
  },
  {
    name: 'tomli',
    language: 'python',
    real: { repo: 'hukkin/tomli', commit: '920e20b1cf495b63f6d4a6aa3cd5e4ff25f5f5a7' },
    runner: () => pytest({ env: { PYTHONPATH: 'src' }, args: ['tests'] }),
    sources: (root) => files(root, 'src', /\.py$/),
    mutants: 4,
  },
  {
    // unittest classes, and subtests: a test fails once whatever number of its subtests fail
    name: 'more-itertools',
    language: 'python',
    real: { repo: 'more-itertools/more-itertools', commit: '2fe1b2eeb9d75f994113fe3ac76d14b6bcd6fb10' },
    runner: () => pytest({ args: ['tests'] }),
    sources: (root) => files(root, 'more_itertools', /\.py$/),
    mutants: 3,
  },
  {
    name: 'generated-python (120 modules)',
    language: 'python',
    generate: (root) => generatePython(root, { modules: 120, perModule: 5, testedModules: 30, seed: SEED }),
    runner: () => pytest(),
    sources: (root) => files(root, 'src', /m\d+\.py$/),
    mutants: 4,
  },
  {
    name: 'cJSON',
    language: 'cpp',
    real: { repo: 'DaveGamble/cJSON', commit: 'a29814f285cc531c00223743ad3c55cd38c0dc56' },
    runner: () => ctest({ parallel: 2 }),
    sources: () => ['cJSON.c'],
    tested: (root) => namedInTests(root, ['tests']),
    mutants: 2,
  },
  {
    name: 'tinyxml2',
    language: 'cpp',
    real: { repo: 'leethomason/tinyxml2', commit: '3dcad8e3c38e7091ae3771bf63020027f91715ce' },
    runner: () => ctest({ parallel: 2 }),
    sources: () => ['tinyxml2.cpp'],
    tested: (root) => namedInTests(root, ['.']),
    mutants: 2,
  },
  {
    name: 'yaml-cpp',
    language: 'cpp',
    optIn: true,
    real: { repo: 'jbeder/yaml-cpp', commit: 'c3f81127320662deb3e28f4da0a511f1faecd860' },
    runner: () => ctest({ parallel: 2, configureArgs: ['-DYAML_CPP_BUILD_TESTS=ON'] }),
    sources: (root) => files(root, 'src', /\.cpp$/),
    tested: (root) => namedInTests(root, ['test/integration', 'test/node']),
    mutants: 2,
  },
  {
    // its unit tests run as a step of the build (POST_BUILD): a failing check fails the build
    name: 'jsoncpp',
    language: 'cpp',
    real: { repo: 'open-source-parsers/jsoncpp', commit: 'edc01ab10f52135ec80e3589b6b4e0a9c65b27fd' },
    runner: () => ctest({ parallel: 2 }),
    sources: (root) => files(root, 'src/lib_json', /\.cpp$/),
    tested: (root) => namedInTests(root, ['src/test_lib_json']),
    mutants: 2,
  },
  {
    name: 'generated-cpp (45 modules)',
    language: 'cpp',
    generate: (root) => generateCpp(root, { modules: 45, perModule: 4, testedModules: 30, seed: SEED }),
    runner: () => ctest({ parallel: 2 }),
    sources: (root) => files(root, 'src', /\.cpp$/),
    mutants: 4,
  },
  {
    name: 'javascript-algorithms',
    language: 'javascript',
    real: { repo: 'trekhleb/javascript-algorithms', commit: '85293e3e2b88f4d2ce330d956b139cf628aa1e82' },
    setup: (dir) => {
      if (!existsSync(join(BABEL, 'node_modules', '@babel', 'preset-env'))) {
        mkdirSync(BABEL, { recursive: true });
        writeFileSync(join(BABEL, 'package.json'), '{ "name": "suture-bench-babel", "private": true }\n');
        execFileSync(
          'npm',
          ['install', '--no-audit', '--no-fund', '--loglevel=error', '@babel/preset-env@7'],
          { cwd: BABEL },
        );
      }
      rmSync(join(dir, '.babelrc'), { force: true });
      const preset = JSON.stringify(join(BABEL, 'node_modules', '@babel', 'preset-env'));
      writeFileSync(
        join(dir, 'babel.config.js'),
        `module.exports = { presets: [[${preset}, { targets: { node: 'current' } }]] };\n`,
      );
      linkNodeModules(dir);
    },
    // its whole suite takes minutes on 2 cores: each mutant runs the tests of its own folder
    scoped: true,
    runner: (mutant) => jest({ args: [dirname(mutant.file)] }),
    sources: (root) => files(root, 'src', /\.js$/).filter((f) => !f.includes('__test__')),
    mutants: 3,
  },
  {
    // TypeScript through its own ts-jest 29.1 and a tsconfig with "sourceMap": false, whose stack
    // places are the compiled code's; each suite declares a decorated class for its tests
    name: 'class-validator',
    language: 'javascript',
    real: { repo: 'typestack/class-validator', commit: '0853341cc36f53d54e5afb50800c3a4b169abd73' },
    setup: (dir) => {
      execFileSync('npm', ['ci', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error'], {
        cwd: dir,
      });
    },
    runner: () => jest(),
    sources: (root) =>
      files(root, 'src', /\.ts$/).filter((f) => !/(^|\/)index\.ts$|\.interface\.ts$/.test(f)),
    mutants: 3,
  },
  {
    name: 'generated-js (60 modules)',
    language: 'javascript',
    generate: (root) => {
      linkNodeModules(root);
      return generateJs(root, { modules: 60, perModule: 4, testedModules: 30, seed: SEED });
    },
    runner: () => jest(),
    sources: (root) => files(root, 'src', /m\d+\.[jt]s$/),
    mutants: 4,
  },
  {
    name: 'generated-python (1000 modules)',
    language: 'python',
    generate: (root) =>
      generatePython(root, { modules: 1000, perModule: 4, testedModules: 20, seed: SEED + 1 }),
    runner: () => pytest(),
    sources: (root) => files(root, 'src', /m\d+\.py$/),
    mutants: 3,
  },
];

function files(root, dir, pattern) {
  const out = [];
  const walk = (abs) => {
    for (const e of readdirSync(abs, { withFileTypes: true })) {
      const p = join(abs, e.name);
      if (e.isDirectory()) {
        if (!e.name.startsWith('.') && e.name !== 'node_modules' && !e.name.startsWith('build')) walk(p);
      } else if (pattern.test(e.name)) out.push(relative(root, p).split('\\').join('/'));
    }
  };
  if (existsSync(join(root, dir))) walk(join(root, dir));
  return out.sort();
}

function materialise(set) {
  const dir = mkdtempSync(join(tmpdir(), `suture-loc-${set.name.replace(/\W+/g, '-')}-`));
  if (set.generate) {
    // a generated project knows which functions its tests reach
    set.generatedTested = set.generate(dir);
    return dir;
  }
  const { repo, commit } = set.real;
  const mirror = join(MIRRORS, repo.replace('/', '+'), 'repo');
  if (existsSync(mirror)) {
    const tar = execFileSync('git', ['--git-dir', mirror, 'archive', '--format=tar', commit], {
      maxBuffer: 1 << 30,
    });
    execFileSync('tar', ['-x', '-C', dir], { input: tar });
  } else {
    const r = spawnSync('git', ['clone', '--quiet', `https://github.com/${repo}.git`, dir]);
    if (r.status !== 0) throw new Error(`git clone ${repo} failed`);
    execFileSync('git', ['checkout', '--quiet', commit], { cwd: dir });
    rmSync(join(dir, '.git'), { recursive: true, force: true });
  }
  set.setup?.(dir);
  return dir;
}

const median = (xs) => (xs.length === 0 ? NaN : [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]);
const pct = (n, d) => (d === 0 ? 'n/a' : `${((100 * n) / d).toFixed(0)} %`);

async function measureSet(set) {
  const started = performance.now();
  const root = materialise(set);
  try {
    // a set whose suite is long runs, for each mutant, the tests of the mutant's folder only
    const runner = set.scoped ? undefined : await set.runner();
    const baseline = runner && baselineFailures(await runOnce(runner, root));
    const want = MUTANTS ?? set.mutants;
    const random = rng(SEED + set.name.length);
    const tested = set.generatedTested ?? set.tested?.(root);
    const candidates = shuffle(
      set
        .sources(root)
        .flatMap((f) => mutantsOf(root, f, set.language))
        .filter((m) => !tested || tested(m.file, m.symbol)),
      random,
    );
    const rows = [];
    let tried = 0;
    let killed = 0;
    for (const mutant of candidates) {
      if (killed >= want || tried >= want * 5) break;
      tried++;
      const scoped = runner ?? (await set.runner(mutant));
      const base = baseline ?? baselineFailures(await runOnce(scoped, root));
      const m = await measureMutant({ runner: scoped, root, mutant, baseline: base });
      if (m.survived) continue;
      killed++;
      console.error(
        `   ${mutant.file}:${mutant.line} ${mutant.symbol} (${mutant.op}): ${m.groups.length} group(s), ranks ${m.groups.map((g) => g.rank).join(',')}`,
      );
      rows.push({ mutant, groups: m.groups });
    }
    return { set: set.name, tried, killed, rows, seconds: (performance.now() - started) / 1000 };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

const results = [];
const wall = performance.now();
for (const set of SETS) {
  if (only.length > 0 ? !only.some((o) => set.name.includes(o)) : set.optIn && !ALL) continue;
  console.error(`== ${set.name}`);
  try {
    results.push(await measureSet(set));
  } catch (error) {
    console.error(`   failed: ${error.stack ?? error}`);
    results.push({ set: set.name, error: String(error.message ?? error).split('\n')[0] });
  }
}

console.log(
  `\nlocalization, seed ${SEED}, token budget ${TOKEN_BUDGET}; per group of failures a mutant made (recall: the buggy function in the scope; rank among the scope's ranked functions; sent: the buggy line in the source slices)\n`,
);
console.log(
  '| set | mutants (tried) | groups/mutant | recall | top-1 | top-3 | sent | median chars | cold ms | warm ms | set time |',
);
console.log('|---|---|---|---|---|---|---|---|---|---|---|');
const all = [];
for (const r of results) {
  if (r.error) {
    console.log(`| ${r.set} | error: ${r.error} | | | | | | | | | |`);
    continue;
  }
  const groups = r.rows.flatMap((x) => x.groups);
  all.push(...groups);
  console.log(
    `| ${r.set} | ${r.killed} (${r.tried}) | ${(groups.length / Math.max(1, r.killed)).toFixed(1)} | ${pct(groups.filter((g) => g.inScope).length, groups.length)} | ${pct(groups.filter((g) => g.rank <= 1).length, groups.length)} | ${pct(groups.filter((g) => g.rank <= 3).length, groups.length)} | ${pct(groups.filter((g) => g.sent).length, groups.length)} | ${median(groups.map((g) => g.chars))} | ${median(groups.map((g) => g.coldMs)).toFixed(0)} | ${median(groups.map((g) => g.warmMs)).toFixed(0)} | ${r.seconds.toFixed(0)} s |`,
  );
}
console.log(
  `| all | ${results.reduce((n, r) => n + (r.killed ?? 0), 0)} | | ${pct(all.filter((g) => g.inScope).length, all.length)} | ${pct(all.filter((g) => g.rank <= 1).length, all.length)} | ${pct(all.filter((g) => g.rank <= 3).length, all.length)} | ${pct(all.filter((g) => g.sent).length, all.length)} | ${median(all.map((g) => g.chars))} | ${median(all.map((g) => g.coldMs)).toFixed(0)} | ${median(all.map((g) => g.warmMs)).toFixed(0)} | ${((performance.now() - wall) / 1000).toFixed(0)} s |`,
);
console.log(
  '\ngoals: recall >= 95 %, top-3 >= 90 %, warm analysis < 1 s per failure on a 1,000-file repository',
);
if (only.length === 0 || only.includes('big-files')) await bigFiles();

/** The Python scope of a failure reaching a 650 KB module of comment runs, and one reaching a 10 MB module. */
async function bigFiles() {
  const { pythonAnalyzer } = await import('../packages/runner-pytest/dist/index.js');
  const { FailureSchema, ScopeSchema } = await import('../packages/core/dist/index.js');
  const { silentLogger } = await import('../packages/core/dist/testing/index.js');
  const root = mkdtempSync(join(tmpdir(), 'suture-loc-big-'));
  try {
    mkdirSync(join(root, 'tests'));
    const comments = Array.from({ length: 20_000 }, (_, i) => `# note ${i}: ${'x'.repeat(20)}`).join('\n');
    writeFileSync(
      join(root, 'notes.py'),
      `${comments}\n\n\ndef total(values):\n    return sum(values) + 1\n`,
    );
    writeFileSync(
      join(root, 'generated.py'),
      `TABLE = [\n${'    (1, 2, 3, 4, 5, 6, 7, 8, 9, 10),\n'.repeat(300_000)}]\n`,
    );
    writeFileSync(
      join(root, 'tests/test_big.py'),
      'from notes import total\nfrom generated import TABLE\n\n\ndef test_total():\n    assert total(TABLE[0]) == 55\n',
    );
    const failure = FailureSchema.parse({
      id: 'p:x',
      kind: 'assertion',
      title: 'a',
      tests: ['tests/test_big.py::test_total'],
      evidence: 'e',
      fingerprint: 'x',
      repairable: true,
      location: { file: 'tests/test_big.py', line: 6, symbol: 'test_total' },
    });
    const info = { name: 'big', root, scopeDepth: 3, logger: silentLogger };
    const analyzer = pythonAnalyzer({ trace: false });
    const t = performance.now();
    const scope = ScopeSchema.parse(await analyzer.scope(failure, info));
    const cold = performance.now() - t;
    const w = performance.now();
    await analyzer.scope(failure, info);
    const warm = performance.now() - w;
    const rank = scope.entries.find((e) => e.file === 'notes.py')?.ranking?.[0]?.symbol;
    console.log(
      `\nbig files: a 650 KB module of comment runs and a 10 MB generated one reached by a failing test: scope in ${cold.toFixed(0)} ms cold, ${warm.toFixed(0)} ms warm; top function ${rank}; ${scope.incomplete ?? 'complete'}`,
    );
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
