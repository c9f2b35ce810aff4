import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AutoRunReportSchema } from '@suture/core';
import { cleanup, suture, workspace } from '../cli-support.js';
import { FIXTURES, commitAll, git, requirePythonModule, tree } from './support.js';

afterAll(cleanup);

const KEY = 'sk-proj-confined-generated-test-000000000000';

/**
 * A user's generator command that writes two tests: one that covers clamp and checks it sees
 * no API key, and a hostile one that appends seven lines to the code under test, prints the key
 * it hopes to see, and fails (so the filter removes it). The command itself fails if it sees the key.
 */
const GENERATOR = [
  'import os, pathlib',
  "gen = pathlib.Path('tests/gen')",
  'gen.mkdir(parents=True, exist_ok=True)',
  "(gen / 'test_gen_env.py').write_text('''import os",
  'from calc.ops import clamp',
  '',
  '',
  'def test_low_without_key():',
  "    assert 'OPENAI_API_KEY' not in os.environ",
  '    assert clamp(-1, 0, 10) == 0',
  "''')",
  "(gen / 'test_gen_tamper.py').write_text('''import os, pathlib",
  '',
  '',
  'def test_tamper():',
  "    with open(pathlib.Path(__file__).parents[2] / 'calc' / 'ops.py', 'a') as f:",
  "        f.write(''.join('\\\\nPLANTED_%d = True' % i for i in range(7)))",
  "    print('key:', os.environ.get('OPENAI_API_KEY'))",
  '    assert False',
  "''')",
  "if 'OPENAI_API_KEY' in os.environ: raise SystemExit('the generator command saw the key')",
  '',
].join('\n');

describe('generated tests and the generator command', () => {
  it('run without secrets, and what a generated test wrote outside the generated files is put back and reported', async (t) => {
    requirePythonModule(t, 'coverage', 'python3 -m pip install coverage');
    const root = await workspace(join(FIXTURES, 'python'));
    await writeFile(
      join(root, 'suture.config.json'),
      JSON.stringify({ projects: [{ name: 'py', root: '.', runner: 'pytest' }], fixers: [], reporters: [] }),
    );
    await writeFile(join(root, 'gen.py'), GENERATOR);
    commitAll(root);
    const before = await tree(root);
    const r = await suture(
      [
        'autorun',
        '--after',
        'python3 gen.py',
        '--generated',
        'tests/gen/**',
        '--target',
        'calc/ops.py',
        '--json',
      ],
      root,
      { OPENAI_API_KEY: KEY },
    );
    expect(r.code, r.stderr).toBe(0);
    const report = AutoRunReportSchema.parse(JSON.parse(r.stdout));
    // the test that checks for the key passed, so it never saw one
    expect(Object.fromEntries(report.tests.map((x) => [x.file, x.verdict]))).toMatchObject({
      'tests/gen/test_gen_env.py': 'kept',
      'tests/gen/test_gen_tamper.py': 'fails',
    });
    // the code under test is as committed, and the report's restored count says so
    expect((await tree(root))['calc/ops.py']).toBe(before['calc/ops.py']);
    expect(report.rollback.restored).toContain('calc/ops.py');
    expect(report.rollback.restored).toContain('tests/gen/test_gen_tamper.py');
    expect(
      report.audit.some(
        (a) => a.kind === 'restore' && a.file === 'calc/ops.py' && /put back/.test(a.purpose),
      ),
    ).toBe(true);
    expect(r.stderr).toContain('calc/ops.py (modified)');
    expect(JSON.stringify(report)).not.toContain(KEY);
    const status = git(root, 'status', '--porcelain', '--untracked-files=all')
      .split('\n')
      .filter((l) => l && !l.includes('__pycache__'));
    expect(status).toEqual(['?? tests/gen/test_gen_env.py']);
  }, 600_000);
});
