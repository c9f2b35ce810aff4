import { execFileSync } from 'node:child_process';
import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HealConfigSchema, type GateReport } from '@suture/core';
import { runGate } from '@suture/core/internal';
import { silentLogger } from '@suture/core/testing';
import pytest from '@suture/runner-pytest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import hints from '../src/index.js';

// The failures come from real pytest runs on the fixture, analyzed by the real Python analyzer,
// and every proposal is validated by the engine re-running the failing tests.
let root: string;
let report: GateReport;
const outcome = (test: string) =>
  report.projects[0]!.failures.find((f) => f.failure.tests.includes(test) || f.failure.title.includes(test))!;

beforeAll(async () => {
  const base = await mkdtemp(join(tmpdir(), 'suture-hints-py-'));
  root = join(base, 'py');
  await cp(fileURLToPath(new URL('./fixtures/py', import.meta.url)), root, { recursive: true });
  report = await runGate({
    root: base,
    outputDir: join(base, '.suture/runs'),
    mode: 'fix',
    projects: [
      {
        name: 'py',
        root,
        runner: pytest(),
        analyzer: pytest().analyzer!(),
        timeoutMs: 60_000,
        heal: HealConfigSchema.parse({ flakyReruns: 0, regression: false }),
      },
    ],
    fixers: [hints()],
    reporters: [],
    concurrency: 1,
    logger: silentLogger,
  });
}, 300_000);

afterAll(async () => {
  await rm(join(root, '..'), { recursive: true, force: true });
});

describe('Python hints', () => {
  it('fixes a NameError typo with the closest visible name', async () => {
    expect(outcome('tests/test_names.py::test_count_words').outcome).toBe('healed');
    expect(await readFile(join(root, 'app/names.py'), 'utf8')).toContain('    return counter\n');
  });

  it('adds a missing standard-library import after the docstring, __future__ and other imports', async () => {
    expect(outcome('tests/test_names.py::test_cwd_name').outcome).toBe('healed');
    const text = await readFile(join(root, 'app/names.py'), 'utf8');
    expect(text.split('\n').slice(0, 6)).toEqual([
      '"""Module with a docstring, so a missing import goes after it."""',
      'from __future__ import annotations',
      '',
      'import json',
      'import os',
      '',
    ]);
  });

  it('adds a missing import below a licence header and the docstring, which stays the module __doc__', async () => {
    expect(outcome('tests/test_licensed.py::test_insert_sorted').outcome).toBe('healed');
    const text = await readFile(join(root, 'app/licensed.py'), 'utf8');
    expect(text.split('\n').slice(0, 6)).toEqual([
      '# Copyright the authors.',
      '# Licensed under the MIT licence: a header of comments above the docstring.',
      '',
      '"""Sorted insertion, documented: the docstring must stay the module\'s __doc__."""',
      'import bisect',
      '',
    ]);
    const doc = execFileSync('python3', ['-c', 'import app.licensed as m; print(m.__doc__)'], { cwd: root });
    expect(doc.toString()).toMatch(/^Sorted insertion/);
  });

  it('fixes misspelled attributes of a project class, a stdlib module and a builtin type', async () => {
    for (const t of [
      'tests/test_attrs.py::test_double',
      'tests/test_attrs.py::test_root',
      'tests/test_attrs.py::test_shout',
    ])
      expect(outcome(t).outcome).toBe('healed');
    const text = await readFile(join(root, 'app/attrs.py'), 'utf8');
    expect(text).toContain('self.value * 2');
    expect(text).toContain('math.sqrt(x)');
    expect(text).toContain('s.upper()');
  });

  it('fixes a name that a module does not export, and a missing colon', async () => {
    expect(outcome('Boxx').outcome).toBe('healed');
    expect(await readFile(join(root, 'app/imports.py'), 'utf8')).toContain('from app.attrs import Box\n');
    expect(outcome("expected ':'").outcome).toBe('healed');
    expect(await readFile(join(root, 'app/colon.py'), 'utf8')).toContain('    if x < 0:  # negative\n');
  });

  it('breaks a tie between scopes in lookup order: a local, then a module name, before a builtin', async () => {
    expect(outcome('tests/test_lookup.py::test_run').outcome).toBe('healed');
    expect(outcome('tests/test_lookup.py::test_count_maps').outcome).toBe('healed');
    const text = await readFile(join(root, 'app/lookup.py'), 'utf8');
    expect(text).toContain('return helper(x)');
    expect(text).toContain('return len(maps)');
  });

  it('leaves an ambiguous name to the next fixer, listing the candidates', async () => {
    const amb = outcome('tests/test_ambiguous.py::test_pick');
    expect(amb.outcome).toBe('unfixable');
    expect(amb.reason).toMatch(/several names are equally close \(car, cat\)/);
    const tie = outcome('tests/test_ambiguous.py::test_describe');
    expect(tie.outcome).toBe('unfixable');
    expect(tie.reason).toMatch(/several names are equally close \(car_name, cat_name\)/);
    const text = await readFile(join(root, 'app/ambiguous.py'), 'utf8');
    expect(text).toContain('return cas');
    expect(text).toContain('return cax_name()');
  });

  it('leaves the project green apart from the ambiguous cases', () => {
    let out = '';
    try {
      execFileSync('python3', ['-m', 'pytest', '-q', '-p', 'no:cacheprovider', '--color=no'], {
        cwd: root,
        encoding: 'utf8',
        env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' },
      });
    } catch (error) {
      out = String((error as { stdout?: string }).stdout);
    }
    expect(out).toMatch(/2 failed, 11 passed/);
    expect(out).toMatch(/test_ambiguous/);
  });
});
