import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FailureSchema, RunResultSchema, type Failure } from '@suture/core';
import { FixerTester, silentLogger } from '@suture/core/testing';
import { parseCompilerOutput } from '@suture/runner-ctest';
import pytest from '@suture/runner-pytest';
import { describe, it } from 'vitest';
import hints from '../src/index.js';

const fixture = (name: string): string => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));
const scopeOf = (...files: string[]) => ({
  entries: files.map((file) => ({ file, role: 'source' as const, reasons: ['named by the failure'] })),
});

/** The build failure the C++ analyzer makes of real g++ output: every diagnostic, blocking the suite. */
async function gccFailure(root: string): Promise<Failure> {
  const diagnostics = parseCompilerOutput(await readFile(join(root, 'gcc-output.txt'), 'utf8'), root);
  return FailureSchema.parse({
    id: 'calc:build',
    kind: 'build',
    title: diagnostics[0]!.message,
    tests: [],
    blocksAll: true,
    location: { file: diagnostics[0]!.file!, line: diagnostics[0]!.line },
    evidence: diagnostics.map((d) => d.raw ?? d.message).join('\n'),
    fingerprint: 'build',
    repairable: true,
    diagnostics,
  });
}

/** The failure the real pytest runner and Python analyzer report for one test of the project. */
async function pytestFailure(root: string, test: string): Promise<Failure> {
  const runner = pytest();
  const workDir = await mkdtemp(join(tmpdir(), 'suture-hints-work-'));
  try {
    const result = await runner.run({
      root,
      selection: [test],
      timeoutMs: 60_000,
      signal: new AbortController().signal,
      logger: silentLogger,
      workDir,
    });
    const info = { name: 'py', root, scopeDepth: 2, logger: silentLogger };
    const [failure] = await runner.analyzer!().analyze(RunResultSchema.parse(result), info);
    return FailureSchema.parse(failure);
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}

const fixedCpp = `#include <cstdio>
#include <vector>

int sum_all() {
  std::vector<int> values{1, 2, 3};
  int counter = 0;
  for (int v : values) counter += v;
  return counter;
}

int main() { std::printf("%d\\n", sum_all()); return 0; }
`;

new FixerTester({ describe, it }).run('@suture/fixer-hints', () => hints(), [
  {
    name: "applies g++'s own fix-it hints, all in one proposal",
    project: fixture('cpp'),
    request: async (root) => ({
      project: { name: 'calc', root, language: 'cpp' },
      failure: await gccFailure(root),
      scope: scopeOf('fix.cpp'),
    }),
    expect: { verdict: 'edits', files: { 'fix.cpp': fixedCpp }, message: /fix-it hints/ },
  },
  {
    name: 'proposes a fix-it outside the scope, which the engine refuses',
    project: fixture('cpp'),
    request: async (root) => ({
      project: { name: 'calc', root, language: 'cpp' },
      failure: await gccFailure(root),
      scope: scopeOf('other.cpp'),
    }),
    expect: { verdict: 'edits', refused: /fix\.cpp is outside the failure's scope/ },
  },
  {
    name: 'renames a NameError typo to the closest visible name, from a real pytest failure',
    project: fixture('py'),
    request: async (root) => ({
      project: { name: 'py', root, language: 'python' },
      failure: await pytestFailure(root, 'tests/test_names.py::test_count_words'),
      scope: scopeOf('app/names.py'),
    }),
    expect: {
      verdict: 'edits',
      files: {
        'app/names.py': (await readFile(join(fixture('py'), 'app/names.py'), 'utf8')).replace(
          '    return countr\n',
          '    return counter\n',
        ),
      },
    },
  },
  {
    name: 'leaves an assertion without a toolchain hint to an LLM fixer',
    request: { project: { name: 'shop', root: '', language: 'python' } },
    expect: { verdict: 'unfixable', message: /assertion failure with no toolchain hint: needs an LLM fixer/ },
  },
]);
