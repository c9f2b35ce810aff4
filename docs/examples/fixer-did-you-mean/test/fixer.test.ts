import { spawnSync } from 'node:child_process';
import type { Diagnostic, FailureInput } from '@suture/core';
import { FixerTester } from '@suture/core/testing';
import { describe, it } from 'vitest';
import didYouMean from '../src/index.js';

const names = 'def count_words(text):\n    counter = len(text.split())\n    return countr\n';
const cpp = 'int total() {\n  int counter = 3;\n  return countr;\n}\n';

/** A failure as an analyzer reports it. */
const failure = (over: Partial<FailureInput>): FailureInput => ({
  id: 'p:f1',
  kind: 'exception',
  title: 'failure',
  tests: ['tests/test_names.py::test_count_words'],
  evidence: '',
  fingerprint: 'f1',
  repairable: true,
  ...over,
});

/** What Python itself prints when `code` raises, run in the project. */
function pythonError(root: string, code: string): string {
  return spawnSync('python3', ['-c', code], { cwd: root, encoding: 'utf8' }).stderr;
}

/** g++'s errors for a file, as a C++ runner reports them: file, line, message. */
function gccErrors(root: string, file: string): Diagnostic[] {
  const { stderr } = spawnSync('g++', ['-fsyntax-only', file], { cwd: root, encoding: 'utf8' });
  return [...stderr.matchAll(/^(.+?):(\d+):(\d+): error: (.*)$/gm)].map((m) => ({
    source: 'gcc',
    severity: 'error' as const,
    file: m[1]!,
    line: Number(m[2]),
    column: Number(m[3]),
    message: m[4]!,
    notes: [],
    fixIts: [],
    tests: [],
  }));
}

new FixerTester({ describe, it }).run('suture-fixer-did-you-mean', () => didYouMean(), [
  {
    name: 'renames a Python NameError to the name CPython suggests',
    project: { 'app/names.py': names },
    request: (root) => {
      const evidence = pythonError(root, 'from app.names import count_words; count_words("a b")');
      return {
        project: { name: 'p', root, language: 'python' },
        failure: failure({
          title: evidence.trim().split('\n').pop()!,
          evidence,
          location: { file: 'app/names.py', line: 3 },
        }),
      };
    },
    expect: {
      verdict: 'edits',
      files: { 'app/names.py': names.replace('return countr', 'return counter') },
      message: 'counter for countr',
    },
  },
  {
    name: "renames a C++ name to the one g++ suggests, at g++'s own line",
    project: { 'src/total.cpp': cpp },
    request: (root) => {
      const diagnostics = gccErrors(root, 'src/total.cpp');
      return {
        project: { name: 'p', root, language: 'cpp' },
        failure: failure({
          kind: 'build',
          title: diagnostics[0]!.message,
          tests: [],
          blocksAll: true,
          location: { file: 'src/total.cpp' },
          diagnostics,
        }),
      };
    },
    expect: { verdict: 'edits', files: { 'src/total.cpp': cpp.replace('return countr', 'return counter') } },
  },
  {
    name: 'leaves a suggestion for a file outside the scope alone',
    project: { 'app/names.py': names, 'app/other.py': 'x = 1\n' },
    request: (root) => {
      const evidence = pythonError(root, 'from app.names import count_words; count_words("a b")');
      return {
        project: { name: 'p', root, language: 'python' },
        failure: failure({ title: 'NameError', evidence, location: { file: 'app/names.py', line: 3 } }),
        scope: { entries: [{ file: 'app/other.py', role: 'source', reasons: ['imported'] }] },
      };
    },
    expect: { verdict: 'unfixable', message: /countr -> counter in app\/names\.py, outside the scope/ },
  },
  {
    name: 'says unfixable when the toolchain suggested nothing',
    project: { 'app/names.py': names.replace('countr', 'zzz') },
    request: (root) => {
      const evidence = pythonError(root, 'from app.names import count_words; count_words("a b")');
      return {
        project: { name: 'p', root, language: 'python' },
        failure: failure({ title: 'NameError', evidence, location: { file: 'app/names.py', line: 3 } }),
      };
    },
    expect: { verdict: 'unfixable', message: 'the toolchain suggested no name' },
  },
]);
