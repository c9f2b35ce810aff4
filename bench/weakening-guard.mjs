#!/usr/bin/env node
// The test-weakening guard over its corpora (packages/cli/test/weakening), reading each file with
// the reader of its runner package (the analyzers' testModel, as the gate does): weakening patches of
// pytest, Jest/Vitest, GoogleTest, Unity and plain C tests that must be refused (among them, in
// the runs corpus, weakenings of what a test runs: the helpers it calls, the rows its assertions
// iterate, constant branches, aliases), and legitimate fixes of the same tests that must be
// accepted (an edited expected value flagged). Prints, per
// language and per reader (syntax trees, the default; text rules, each reader's fallback for a file
// that does not parse), how many were refused and accepted, which cases a reader gets wrong, and the time of
// one check (both versions read anew): the first (which loads tree-sitter and the grammar) and the
// median after it, and of one check of a generated 1,500-line pytest file.
//   node bench/weakening-guard.mjs [repeats=20]
import { checkTestWeakening as guard } from '../packages/core/dist/internal.js';
import ctest from '../packages/runner-ctest/dist/index.js';
import jest from '../packages/runner-jest/dist/index.js';
import pytest from '../packages/runner-pytest/dist/index.js';
import * as main from '../packages/cli/test/weakening/corpus.mjs';
import * as tree from '../packages/cli/test/weakening/tree-corpus.mjs';
import * as runs from '../packages/cli/test/weakening/runs-corpus.mjs';

const readers = [pytest().analyzer(), jest().analyzer(), ctest().analyzer()];
const analyzer = {
  name: 'first-party-readers',
  apiVersion: 1,
  analyze: async () => [],
  scope: async () => ({ entries: [] }),
  testModel: (file, content, reader) => {
    for (const a of readers) {
      const model = a.testModel(file, content, reader);
      if (model) return model;
    }
    return undefined;
  },
};
const checkTestWeakening = (file, before, after, options = {}) =>
  guard(file, before, after, { analyzer, ...options });

const repeats = Number(process.argv[2] ?? 20);
const language = (file) => (/\.py$/.test(file) ? 'Python' : /\.[cm]?[jt]sx?$/.test(file) ? 'JS/TS' : 'C/C++');
const corpora = [
  {
    name: 'corpus',
    weakenings: main.WEAKENINGS,
    legitimate: main.LEGITIMATE,
    changes: main.EXPECTATION_CHANGES,
  },
  { name: 'tree corpus', weakenings: tree.WEAKENINGS, legitimate: tree.LEGITIMATE, changes: new Set() },
  {
    name: 'runs corpus',
    weakenings: runs.WEAKENINGS,
    legitimate: runs.LEGITIMATE,
    changes: runs.EXPECTATION_CHANGES,
  },
];

const t0 = performance.now();
checkTestWeakening('t.py', 'def test_a():\n    assert f() == 1\n', 'def test_a():\n    assert True\n');
const firstMs = performance.now() - t0;

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const pad = (s, n) => String(s).padEnd(n);

for (const reader of ['tree', 'text']) {
  const options = { protectedNames: ['calc'], ...(reader === 'text' ? { reader: 'text' } : {}) };
  console.log(`\nread by ${reader === 'tree' ? 'syntax trees' : 'text rules'}`);
  console.log(
    `${pad('corpus', 13)}${pad('language', 9)}${pad('refused', 10)}${pad('accepted', 10)}${pad('flagged', 9)}median check`,
  );
  const wrong = [];
  for (const c of corpora) {
    for (const lang of ['Python', 'JS/TS', 'C/C++']) {
      const weak = c.weakenings.filter(([, file]) => language(file) === lang);
      const legit = c.legitimate.filter(([, file]) => language(file) === lang);
      const times = [];
      let refused = 0;
      let accepted = 0;
      let flagged = 0;
      for (const [name, file, before, after] of weak) {
        const v = checkTestWeakening(file, before, after, options);
        if (v.weakening) refused++;
        else wrong.push(`let through: ${name} (${file})`);
      }
      for (const [name, file, before, after] of legit) {
        const v = checkTestWeakening(file, before, after, options);
        if (!v.weakening) accepted++;
        else wrong.push(`refused: ${name} (${file}): ${v.weakening.slice(0, 100)}`);
        if (v.expectationChanged && c.changes.has(name)) flagged++;
      }
      // a comment that differs each time: both versions are read anew, as for a new proposal
      const note = (file, i) => (/\.py$/.test(file) ? `\n# ${i}\n` : `\n// ${i}\n`);
      for (let i = 0; i < repeats; i++)
        for (const [, file, before, after] of [...weak, ...legit]) {
          const t = performance.now();
          checkTestWeakening(file, before + note(file, i), after + note(file, i), options);
          times.push(performance.now() - t);
        }
      const changes = legit.filter(([name]) => c.changes.has(name)).length;
      console.log(
        `${pad(c.name, 13)}${pad(lang, 9)}${pad(`${refused}/${weak.length}`, 10)}${pad(`${accepted}/${legit.length}`, 10)}${pad(`${flagged}/${changes}`, 9)}${median(times).toFixed(2)} ms`,
      );
    }
  }
  for (const w of wrong) console.log(`  ${w}`);
}
console.log(`\nfirst check (loads tree-sitter and the Python grammar): ${firstMs.toFixed(0)} ms`);
const big = ['import pytest', 'from calc import add', ''];
for (let i = 0; i < 300; i++)
  big.push(
    `def test_${i}():\n    total = add(${i}, 1)\n    assert total == ${i + 1}\n    assert add(0, ${i}) == ${i}\n`,
  );
const large = big.join('\n');
for (const reader of ['tree', 'text']) {
  const times = [];
  for (let i = 0; i < Math.max(3, Math.ceil(repeats / 4)); i++) {
    const before = `${large}\n# ${i}\n`;
    const t = performance.now();
    checkTestWeakening(
      'tests/test_big.py',
      before,
      before.replace('== 151', '== 152'),
      reader === 'text' ? { reader } : {},
    );
    times.push(performance.now() - t);
  }
  console.log(`1,500-line pytest file, read by ${reader}: ${median(times).toFixed(0)} ms a check`);
}
