#!/usr/bin/env node
// Runs the deterministic fixer over a corpus of mechanical failures in Python, C++ and JavaScript,
// through the real gate (real pytest, CMake/CTest/g++, Jest), and checks every kept patch by
// applying it to a fresh copy and running the real toolchain again. Prints the healed fraction,
// the wrong patches kept (must be 0) and the median time per heal. Traps are failures where any
// fix would be a guess (two equally close names, ';' or ',', a name several headers declare):
// the fixer must leave them alone.   node bench/hints-corpus.mjs
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { HealConfigSchema } from '../packages/core/dist/index.js';
import { runGate } from '../packages/core/dist/internal.js';
import { silentLogger } from '../packages/core/dist/testing/index.js';
import pytest from '../packages/runner-pytest/dist/index.js';
import ctest from '../packages/runner-ctest/dist/index.js';
import jest from '../packages/runner-jest/dist/index.js';
import hints from '../packages/fixer-hints/dist/index.js';

const REPO = new URL('..', import.meta.url).pathname;
const py = (name, src, test) => ({
  lang: 'python',
  name,
  files: { 'app/__init__.py': '', 'app/mod.py': src, 'tests/test_mod.py': test },
});
const cpp = (name, src) => ({
  lang: 'cpp',
  name,
  files: {
    'CMakeLists.txt':
      'cmake_minimum_required(VERSION 3.16)\nproject(c CXX)\nset(CMAKE_CXX_STANDARD 17)\nenable_testing()\nadd_executable(check main.cpp)\nadd_test(NAME check COMMAND check)\n',
    'main.cpp': src,
  },
});
const js = (name, src, test, extra = {}) => ({
  lang: 'javascript',
  name,
  files: {
    'package.json': '{"private":true,"type":"commonjs"}',
    'src/mod.js': src,
    '__tests__/mod.test.js': test,
    ...extra,
  },
});
const trap = (c) => ({ ...c, trap: true });

const CORPUS = [
  py(
    'local typo',
    'def total(xs):\n    acc = 0\n    for x in xs:\n        acc += x\n    return acx\n',
    'from app.mod import total\n\n\ndef test_total():\n    assert total([1, 2]) == 3\n',
  ),
  py(
    'global typo',
    'def helper(x):\n    return x * 2\n\n\ndef run(x):\n    return helpr(x)\n',
    'from app.mod import run\n\n\ndef test_run():\n    assert run(2) == 4\n',
  ),
  py(
    'missing import os',
    'def here():\n    return os.sep\n',
    'from app.mod import here\n\n\ndef test_here():\n    assert here() == "/"\n',
  ),
  py(
    'missing import json',
    'def dump(x):\n    return json.dumps(x)\n',
    'from app.mod import dump\n\n\ndef test_dump():\n    assert dump([1]) == "[1]"\n',
  ),
  py(
    'module attribute',
    'import math\n\n\ndef root(x):\n    return math.sqroot(x)\n',
    'from app.mod import root\n\n\ndef test_root():\n    assert root(9) == 3\n',
  ),
  py(
    'builtin attribute',
    'def shout(s):\n    return s.uper()\n',
    'from app.mod import shout\n\n\ndef test_shout():\n    assert shout("a") == "A"\n',
  ),
  py(
    'class attribute',
    'class Box:\n    def __init__(self, size):\n        self.size = size\n\n    def double(self):\n        return self.szie * 2\n',
    'from app.mod import Box\n\n\ndef test_double():\n    assert Box(2).double() == 4\n',
  ),
  py(
    'import name',
    'from os.path import joinn\n\n\ndef path(a, b):\n    return joinn(a, b)\n',
    'from app.mod import path\n\n\ndef test_path():\n    assert path("a", "b") == "a/b"\n',
  ),
  py(
    'missing colon',
    'def sign(x):\n    if x < 0\n        return -1\n    return 1\n',
    'from app.mod import sign\n\n\ndef test_sign():\n    assert sign(-2) == -1\n',
  ),
  cpp(
    'missing <vector>',
    '#include <cstdio>\nint main() {\n  std::vector<int> v{1, 2, 3};\n  return v.size() == 3 ? 0 : 1;\n}\n',
  ),
  cpp('missing <string>', 'int main() {\n  std::string s = "abc";\n  return s.size() == 3 ? 0 : 1;\n}\n'),
  cpp(
    'missing <map>',
    'int main() {\n  std::map<int, int> m;\n  m[1] = 2;\n  return m.at(1) == 2 ? 0 : 1;\n}\n',
  ),
  cpp('identifier typo', 'int main() {\n  int counter = 3;\n  return countr == 3 ? 0 : 1;\n}\n'),
  cpp(
    'member typo',
    'struct S { int value = 4; };\nint main() {\n  S s;\n  return s.valeu == 4 ? 0 : 1;\n}\n',
  ),
  cpp('missing semicolon', 'int main() {\n  int x = 1\n  return x == 1 ? 0 : 1;\n}\n'),
  cpp('missing <cmath>', 'int main() {\n  return std::sqrt(16.0) == 4.0 ? 0 : 1;\n}\n'),
  js(
    'function typo',
    'function total(xs) {\n  return xs.reduce((a, b) => a + b, 0);\n}\nfunction run(xs) {\n  return totl(xs);\n}\nmodule.exports = { run };\n',
    "const { run } = require('../src/mod');\ntest('run', () => expect(run([1, 2])).toBe(3));\n",
  ),
  js(
    'variable typo',
    'function label(n) {\n  const count = n;\n  return `${cont} items`;\n}\nmodule.exports = { label };\n',
    "const { label } = require('../src/mod');\ntest('label', () => expect(label(2)).toBe('2 items'));\n",
  ),
  js(
    'missing require(path)',
    'function base(p) {\n  return path.basename(p);\n}\nmodule.exports = { base };\n',
    "const { base } = require('../src/mod');\ntest('base', () => expect(base('/a/b.txt')).toBe('b.txt'));\n",
  ),
  js(
    'missing require(os)',
    'function eol() {\n  return os.EOL;\n}\nmodule.exports = { eol };\n',
    "const { eol } = require('../src/mod');\ntest('eol', () => expect(eol()).toBe('\\n'));\n",
  ),
  js(
    'typo of a required name',
    "const { double } = require('./util');\nfunction quad(x) {\n  return doubel(double(x));\n}\nmodule.exports = { quad };\n",
    "const { quad } = require('../src/mod');\ntest('quad', () => expect(quad(1)).toBe(4));\n",
    { 'src/util.js': 'function double(x) {\n  return x * 2;\n}\nmodule.exports = { double };\n' },
  ),
  js(
    'method typo',
    'function upper(s) {\n  return s.toUppercase();\n}\nmodule.exports = { upper };\n',
    "const { upper } = require('../src/mod');\ntest('upper', () => expect(upper('a')).toBe('A'));\n",
  ),
  py(
    'local beats builtin',
    'def count_maps(items):\n    maps = [i for i in items if i]\n    return len(mapz)\n',
    'from app.mod import count_maps\n\n\ndef test_count():\n    assert count_maps([0, 1, 2]) == 2\n',
  ),
  cpp(
    'missing <numeric>',
    '#include <vector>\n\nint main() {\n  std::vector<int> v{1, 2, 3};\n  return std::accumulate(v.begin(), v.end(), 0) == 6 ? 0 : 1;\n}\n',
  ),
  cpp(
    'missing <chrono>',
    'int main() {\n  auto t = std::chrono::milliseconds(5);\n  return t.count() == 5 ? 0 : 1;\n}\n',
  ),
  cpp(
    'semicolon, tabs, comment',
    '#include <cstdio>\n\nint main() {\n\tint x = 1  // one\n\t/* two */ return x - 1;\n}\n',
  ),
  js(
    'missing require(fs)',
    'function exists(p) {\n  return fs.existsSync(p);\n}\nmodule.exports = { exists };\n',
    "const { exists } = require('../src/mod');\ntest('exists', () => expect(exists('/')).toBe(true));\n",
  ),
  trap(
    py(
      'tie in one scope',
      'def cat_name():\n    return "cat"\n\n\ndef car_name():\n    return "car"\n\n\ndef name():\n    return cax_name()\n',
      'from app.mod import name\n\n\ndef test_name():\n    assert name() == "car"\n',
    ),
  ),
  trap(
    cpp("';' or ','", 'int y = 0;\n\nint main() {\n  int x = 1\n  y = 2;\n  return x + y == 3 ? 0 : 1;\n}\n'),
  ),
  trap(
    cpp(
      'size_t in five headers',
      'std::size_t three() { return 3; }\n\nint main() { return three() == 3 ? 0 : 1; }\n',
    ),
  ),
  trap(
    js(
      'util: built-in or ./util',
      "function label(n) {\n  return util.format('%d items', n);\n}\nmodule.exports = { label };\n",
      "const { label } = require('../src/mod');\ntest('label', () => expect(label(2)).toBe('2 items'));\n",
      { 'src/util.js': 'function format(n) {\n  return `${n} items`;\n}\nmodule.exports = { format };\n' },
    ),
  ),
];

const runners = { python: () => pytest(), cpp: () => ctest({ parallel: 2 }), javascript: () => jest() };
const verify = {
  python: (root) =>
    execFileSync('python3', ['-m', 'pytest', '-q', '-p', 'no:cacheprovider'], {
      cwd: root,
      stdio: 'ignore',
      env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' },
    }),
  cpp: (root) => {
    execFileSync('cmake', ['-S', root, '-B', join(root, 'b')], { stdio: 'ignore' });
    execFileSync('cmake', ['--build', join(root, 'b')], { stdio: 'ignore' });
    execFileSync('ctest', ['--test-dir', join(root, 'b')], { stdio: 'ignore' });
  },
  javascript: (root) =>
    execFileSync(process.execPath, [join(REPO, 'node_modules/jest/bin/jest.js'), '--ci'], {
      cwd: root,
      stdio: 'ignore',
    }),
};

async function materialize(base, c) {
  const root = join(base, 'p');
  for (const [file, text] of Object.entries(c.files)) {
    await mkdir(join(root, file, '..'), { recursive: true });
    await writeFile(join(root, file), text);
  }
  execFileSync('git', ['init', '-q'], { cwd: base });
  return root;
}

await mkdir(join(REPO, '.tmp'), { recursive: true });
let healed = 0;
let held = 0;
let wrongKept = 0;
const times = [];
const rows = [];
for (const c of CORPUS) {
  const base = await mkdtemp(join(REPO, '.tmp', 'corpus-'));
  const root = await materialize(base, c);
  const report = await runGate({
    root: base,
    outputDir: join(base, '.suture/runs'),
    mode: 'check',
    projects: [
      {
        name: 'p',
        root,
        runner: runners[c.lang](),
        analyzer: runners[c.lang]().analyzer(),
        timeoutMs: 120_000,
        heal: HealConfigSchema.parse({ flakyReruns: 0, regression: false, maxAttempts: 1 }),
      },
    ],
    fixers: [hints()],
    reporters: [],
    concurrency: 1,
    logger: silentLogger,
  });
  const failures = report.projects[0].failures;
  const ok = failures.length > 0 && failures.every((f) => f.outcome === 'healed');
  let verified = '';
  if (report.patch) {
    const fresh = await mkdtemp(join(REPO, '.tmp', 'corpus-check-'));
    const freshRoot = await materialize(fresh, c);
    await writeFile(join(fresh, 'fix.patch'), report.patch);
    try {
      execFileSync('git', ['apply', 'fix.patch'], { cwd: fresh, stdio: 'ignore' });
      verify[c.lang](freshRoot);
      verified = 'verified';
    } catch {
      verified = 'WRONG';
      wrongKept++;
    }
    await rm(fresh, { recursive: true, force: true });
  }
  if (c.trap) {
    if (failures.length > 0 && !report.patch && failures.every((f) => f.outcome !== 'healed')) held++;
  } else if (ok && verified === 'verified') {
    healed++;
    for (const f of failures)
      for (const a of f.attempts) if (a.verdict === 'healed') times.push(a.durationMs);
  }
  const outcome = ok ? 'healed' : failures.map((f) => f.outcome).join(',') || 'no failure';
  rows.push(
    `${c.lang.padEnd(10)} ${`${c.trap ? 'trap: ' : ''}${c.name}`.padEnd(30)} ${outcome} ${verified}${c.trap ? (outcome === 'unfixable' ? ' (left alone, as it must)' : ' (MUST BE LEFT ALONE)') : ''}`,
  );
  await rm(base, { recursive: true, force: true });
}
console.log(rows.join('\n'));
const median = [...times].sort((a, b) => a - b)[Math.floor(times.length / 2)] ?? 0;
const cases = CORPUS.filter((c) => !c.trap);
const traps = CORPUS.length - cases.length;
console.log(
  `\ncorpus: ${cases.length} mechanical failures (python ${cases.filter((c) => c.lang === 'python').length}, cpp ${cases.filter((c) => c.lang === 'cpp').length}, javascript ${cases.filter((c) => c.lang === 'javascript').length}) and ${traps} traps`,
);
console.log(
  `healed: ${healed}/${cases.length} (${((healed / cases.length) * 100).toFixed(0)} %, target >= 80 %)`,
);
console.log(`traps left alone: ${held}/${traps} (must be all)`);
console.log(`wrong patches kept: ${wrongKept} (must be 0)`);
console.log(`median time per heal (proposal + validation re-run): ${median.toFixed(0)} ms`);
