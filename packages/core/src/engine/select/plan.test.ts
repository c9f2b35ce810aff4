import { describe, expect, it } from 'vitest';
import type { SelectionRecord } from '../../api/contracts/selection.js';
import { sha256 } from '../../safety/atomic.js';
import { planSelection, type PlanInput } from './plan.js';

const PRICING = [
  'RATE = 2',
  '',
  '',
  'def double(x):',
  '    return x * RATE',
  '',
  '',
  'def half(x):',
  '    if x:',
  '        return x / 2',
  '    else:',
  '        return 0',
  '',
].join('\n');
const TESTS = [
  'from shop.pricing import double, half',
  '',
  'def test_double():',
  '    assert double(2) == 4',
  '',
  'def test_half():',
  '    assert half(4) == 2',
  '',
].join('\n');

/** A record of two tests: test_double ran line 5 of pricing.py, test_half lines 9-10. */
function record(toolchain = 'py 3.11'): SelectionRecord {
  const p = sha256(PRICING);
  const t = sha256(TESTS);
  const at = '2026-01-01T00:00:00.000Z';
  return {
    version: 1,
    project: 'py',
    runner: 'r',
    toolchain,
    trees: [],
    tests: {
      'tests/test_p.py::test_double': {
        recordedAt: at,
        file: 'py/tests/test_p.py',
        ran: {
          'py/shop/pricing.py': { sha256: p, lines: '5' },
          'py/tests/test_p.py': { sha256: t, lines: '4' },
        },
      },
      'tests/test_p.py::test_half': {
        recordedAt: at,
        file: 'py/tests/test_p.py',
        ran: {
          'py/shop/pricing.py': { sha256: p, lines: '9-10' },
          'py/tests/test_p.py': { sha256: t, lines: '7' },
        },
      },
    },
    files: {
      'py/shop/pricing.py': { [p]: { shared: '1,4,8', code: '1,4-5,8-10,12' } },
      'py/tests/test_p.py': { [t]: { shared: '1,3,6', code: '1,3-4,6-7' } },
    },
  };
}

function input(files: Record<string, string>, over: Partial<PlanInput> = {}): PlanInput {
  const tree: Record<string, string> = {
    'py/shop/pricing.py': PRICING,
    'py/tests/test_p.py': TESTS,
    ...files,
  };
  const blobs = new Map([PRICING, TESTS].map((t) => [sha256(t), t]));
  const changed = Object.keys(files);
  return {
    repoRoot: '/repo',
    projectRoot: '/repo/py',
    otherRoots: ['/repo/web'],
    record: record(),
    rules: { toolchain: 'py 3.11', runAll: ['**/conftest.py', 'pyproject.toml'] },
    changed,
    baseChanged: new Set(changed),
    base: async (f) =>
      f === 'py/shop/pricing.py' ? PRICING : f === 'py/tests/test_p.py' ? TESTS : undefined,
    fileSelection: true,
    current: async (f) => (tree[f] === undefined ? undefined : { sha256: sha256(tree[f]!), text: tree[f]! }),
    blob: async (h) => blobs.get(h),
    ...over,
  };
}

const edit = (text: string, line: number, to: string): string =>
  text
    .split('\n')
    .map((l, i) => (i === line - 1 ? to : l))
    .join('\n');

describe('planSelection', () => {
  it('selects only the test that ran a changed line of a function body', async () => {
    const plan = await planSelection(
      input({ 'py/shop/pricing.py': edit(PRICING, 5, '    return x * RATE * 1') }),
    );
    expect(plan).toMatchObject({ basis: 'record', selection: ['tests/test_p.py::test_double'], known: 2 });
  });

  it('reads the change in the recorded version when the record already saw the file as it is now', async () => {
    const now = edit(PRICING, 10, '        return x // 2');
    const r = record();
    const h = sha256(now);
    const old = Object.values(r.files['py/shop/pricing.py']!)[0]!;
    r.files['py/shop/pricing.py'] = { [h]: old };
    for (const t of Object.values(r.tests)) t.ran['py/shop/pricing.py']!.sha256 = h;
    const plan = await planSelection(input({ 'py/shop/pricing.py': now }, { record: r }));
    expect(plan).toMatchObject({ basis: 'record', selection: ['tests/test_p.py::test_half'] });
  });

  it('judges a changed line that holds no code by the code around it (an else: the branch it guards)', async () => {
    const plan = await planSelection(
      input({ 'py/shop/pricing.py': edit(PRICING, 11, '    elif x is None:') }),
    );
    // line 12 (the else branch) ran in no test, so the code before it (line 10) decides
    expect(plan).toMatchObject({ basis: 'record', selection: ['tests/test_p.py::test_half'] });
  });

  it('runs every test when module-level code changes (a constant every function reads)', async () => {
    const plan = await planSelection(input({ 'py/shop/pricing.py': edit(PRICING, 1, 'RATE = 3') }));
    expect(plan).toMatchObject({
      basis: 'all',
      fallback: expect.stringMatching(/pricing\.py:1 changed: code that runs for every test/),
    });
  });

  it('runs every test for a signature change or a function inserted between two', async () => {
    expect(
      await planSelection(input({ 'py/shop/pricing.py': edit(PRICING, 4, 'def double(x, y=1):') })),
    ).toMatchObject({ basis: 'all' });
    const inserted = PRICING.replace('\n\ndef half', '\ndef triple(x):\n    return 3 * x\n\n\ndef half');
    expect(await planSelection(input({ 'py/shop/pricing.py': inserted }))).toMatchObject({ basis: 'all' });
  });

  it('runs a test whose own file changed, and its file whole for tests the record does not know', async () => {
    const plan = await planSelection(
      input({ 'py/tests/test_p.py': edit(TESTS, 7, '    assert half(4) == 2.0') }),
    );
    expect(plan).toMatchObject({ basis: 'record', selection: ['tests/test_p.py'] });
  });

  it('runs every test for a conftest.py, a build file, a data file or a new file', async () => {
    for (const file of [
      'py/tests/conftest.py',
      'py/pyproject.toml',
      'py/tests/data.json',
      'py/shop/new.py',
      'LICENSE',
    ]) {
      const plan = await planSelection(input({ [file]: 'x = 1\n' }));
      expect(plan, file).toMatchObject({ basis: 'all', fallback: expect.stringContaining(file) });
    }
  });

  it("leaves another project's files to that project", async () => {
    expect(await planSelection(input({ 'web/src/app.ts': 'x' }))).toMatchObject({
      basis: 'record',
      selection: [],
    });
  });

  it('falls back without a record, under another toolchain, or when a recorded version is missing', async () => {
    expect(await planSelection(input({}, { record: undefined }))).toMatchObject({
      basis: 'all',
      fallback: expect.stringMatching(/no selection record/),
    });
    expect(await planSelection(input({}, { record: record('py 3.12') }))).toMatchObject({
      basis: 'all',
      fallback: expect.stringMatching(/toolchain changed/),
    });
    const plan = await planSelection(
      input({ 'py/shop/pricing.py': edit(PRICING, 5, '    return 0') }, { blob: async () => undefined }),
    );
    expect(plan).toMatchObject({ basis: 'all', fallback: expect.stringMatching(/store lacks the version/) });
  });

  it('always selects a test that started processes the record cannot follow', async () => {
    const r = record();
    r.tests['tests/test_p.py::test_half']!.opaque = true;
    expect(await planSelection(input({}, { record: r }))).toMatchObject({
      basis: 'record',
      selection: ['tests/test_p.py::test_half'],
    });
  });

  it('runs every test when a file recorded tests ran is deleted', async () => {
    const plan = await planSelection(input({}, { current: async () => undefined }));
    expect(plan).toMatchObject({ basis: 'all', fallback: expect.stringMatching(/deleted/) });
  });
});
