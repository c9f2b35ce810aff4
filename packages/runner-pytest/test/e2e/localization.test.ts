import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  FailureSchema,
  RunResultSchema,
  ScopeSchema,
  type Failure,
  type FixRequest,
  type Scope,
} from '@suture/core';
import { scriptedFixer, silentLogger } from '@suture/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pytest from '../../src/index.js';
import { cleanup, gate, here, repoWith } from './gate-support.js';

const temps: string[] = [];
afterAll(async () => {
  await cleanup();
  await Promise.all(temps.map((d) => rm(d, { recursive: true, force: true })));
});

interface Bug {
  /** The failing test (or doctest) the bug shows in. */
  test: string;
  file: string;
  /** The function that holds the bug: the ground truth the scope must rank. */
  symbol: string;
  right: string;
  wrong: string;
}

/** One bug behind each construct an import-following scope must see through. */
const BUGS: Record<string, Bug> = {
  'a star import (from geometry import *, re-exported by from .shapes import * under __all__)': {
    test: 'tests/test_star.py::test_area',
    file: 'src/geometry/shapes.py',
    symbol: 'area',
    right: 'return width * height',
    wrong: 'return width + height',
  },
  'a re-export through a package __init__': {
    test: 'tests/test_reexport.py::test_scale',
    file: 'src/geometry/transform.py',
    symbol: 'scale',
    right: 'y * factor',
    wrong: 'y + factor',
  },
  'a module-level alias (bisect = _bisect_right)': {
    test: 'tests/test_alias.py::test_bisect',
    file: 'src/geometry/shapes.py',
    symbol: '_bisect_right',
    right: 'if x < values[mid]:',
    wrong: 'if x <= values[mid]:',
  },
  'a decorator that wraps the function': {
    test: 'tests/test_decorated.py::test_clamp_high',
    file: 'src/geometry/transform.py',
    symbol: 'clamp',
    right: '    if value > high:\n        return high',
    wrong: '    if value > high:\n        return low',
  },
  "a failing doctest in a function's docstring": {
    test: 'src/geometry/units.py::geometry.units.to_cm',
    file: 'src/geometry/units.py',
    symbol: 'to_cm',
    right: 'inches * 2.54',
    wrong: 'inches * 2.45',
  },
  'a failing doctest in an .rst document': {
    test: 'docs/usage.rst::usage.rst',
    file: 'src/geometry/shapes.py',
    symbol: 'perimeter',
    right: '2 * (width + height)',
    wrong: '2 * width + height',
  },
};

async function seed(root: string): Promise<void> {
  for (const bug of Object.values(BUGS)) {
    const text = await readFile(join(root, bug.file), 'utf8');
    if (!text.includes(bug.right)) throw new Error(`${bug.right} is not in ${bug.file}`);
    await writeFile(join(root, bug.file), text.replace(bug.right, bug.wrong));
  }
}

/** 1-based rank of a function in a scope's ranking across files, or Infinity when it is not in it. */
function rankOf(scope: Scope, file: string, symbol: string): number {
  const ranked = scope.entries
    .flatMap((e) => (e.ranking ?? []).map((r) => ({ file: e.file, ...r })))
    .sort((a, b) => b.score - a.score);
  const at = ranked.findIndex((r) => r.file === file && r.symbol === symbol);
  return at < 0 ? Infinity : at + 1;
}

describe('scope on a real pytest run of a src-layout package (star imports, re-exports, aliases, decorators, doctests)', () => {
  let root: string;
  let groups: Failure[];
  const analyzer = pytest().analyzer!();
  const project = () => ({ name: 'geometry', root, scopeDepth: 3, logger: silentLogger });
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'suture-pytest-localization-'));
    temps.push(root);
    await cp(join(here, 'localization'), root, { recursive: true });
    await seed(root);
    const workDir = await mkdtemp(join(tmpdir(), 'suture-pytest-work-'));
    temps.push(workDir);
    const result = RunResultSchema.parse(
      await pytest().run({
        root,
        workDir,
        timeoutMs: 60_000,
        signal: new AbortController().signal,
        logger: silentLogger,
      }),
    );
    groups = (await analyzer.analyze(result, project())).map((f) => FailureSchema.parse(f));
  }, 120_000);

  it.each(Object.entries(BUGS))(
    'ranks the buggy function in the top 3 behind %s',
    async (_construct, bug) => {
      const group = groups.find((g) => g.tests.includes(bug.test));
      expect(group, `no failure explains ${bug.test}`).toBeDefined();
      const scope = ScopeSchema.parse(await analyzer.scope(group!, project()));
      expect(scope.entries.map((e) => e.file)).toContain(bug.file);
      expect(rankOf(scope, bug.file, bug.symbol)).toBeLessThanOrEqual(3);
    },
  );

  it('follows a class-level alias (position = position_right) to the function it calls', async () => {
    const group = groups.find((g) => g.tests.includes('tests/test_alias.py::test_ruler'))!;
    const scope = ScopeSchema.parse(await analyzer.scope(group, project()));
    expect(rankOf(scope, 'src/geometry/shapes.py', 'Ruler.position_right')).toBeLessThanOrEqual(3);
    expect(rankOf(scope, 'src/geometry/shapes.py', '_bisect_right')).toBeLessThanOrEqual(3);
  });
});

describe('the gate heals each construct with a fixer that proposes the true fix', () => {
  it('accepts every true fix as inside its scope, and the suite is green after', async () => {
    const { repo, root } = await repoWith('localization');
    await seed(root);
    const trueFix = (r: FixRequest) => {
      const bug = Object.values(BUGS).find((b) => r.failure.tests.includes(b.test));
      if (!bug)
        return { verdict: 'unfixable', diagnosis: `not scripted: ${r.failure.tests.join(', ')}` } as const;
      return {
        verdict: 'edits',
        rationale: 'the true fix',
        edits: [{ file: bug.file, search: bug.wrong, replace: bug.right }],
      } as const;
    };
    const fixer = scriptedFixer(Array(20).fill(trueFix));
    const report = await gate({ repo, root, fixers: [fixer], heal: { flakyReruns: 0 } });
    const outcomes = report.projects[0]!.failures.map((f) => [f.failure.tests[0], f.outcome, f.reason ?? '']);
    for (const bug of Object.values(BUGS))
      expect(outcomes.find(([t]) => t === bug.test)).toEqual([bug.test, 'healed', expect.any(String)]);
    expect(report.projects[0]!.failures.every((f) => f.outcome === 'healed')).toBe(true);
    expect(report.projects[0]!.status).toBe('healed');
    expect(report.projects[0]!.failures.flatMap((f) => f.attempts.map((a) => a.verdict))).not.toContain(
      'refused',
    );
  }, 300_000);
});
