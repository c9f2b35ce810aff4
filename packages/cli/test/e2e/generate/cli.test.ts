import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AutoRunReportSchema } from '@suture/core';
import { cleanup, suture, workspace } from '../cli-support.js';
import { FIXTURES, commitAll, git, requirePythonModule, tree } from './support.js';

afterAll(cleanup);

const CONFIG = JSON.stringify({
  projects: [{ name: 'py', root: '.', runner: 'pytest' }],
  fixers: [],
  reporters: [],
});

const KEPT = 'from calc.ops import clamp\n\n\ndef test_low():\n    assert clamp(-1, 0, 10) == 0\n';
const FAILS = 'from calc.ops import clamp\n\n\ndef test_wrong():\n    assert clamp(5, 0, 10) == 6\n';

/** A user's own generator: writes a good test, a wrong one, and appends a wrong test to a tracked file. */
const USER_GENERATOR = [
  'import pathlib',
  "gen = pathlib.Path('tests/gen')",
  'gen.mkdir(parents=True, exist_ok=True)',
  `(gen / 'test_gen_low.py').write_text(${JSON.stringify(KEPT)})`,
  `(gen / 'test_gen_fails.py').write_text(${JSON.stringify(FAILS)})`,
  "with open('tests/test_ops.py', 'a') as f:",
  "    f.write('\\n\\ndef test_generated_wrong():\\n    assert clamp(1, 0, 10) == 2\\n')",
  '',
].join('\n');

/** A generator plugin loaded by path, as a third party's would be. */
const PLUGIN = `
export default function local() {
  return {
    name: 'local-generator',
    apiVersion: 1,
    language: 'python',
    async generate(request) {
      const files = [
        { file: 'tests/gen/test_gen_low.py', content: ${JSON.stringify(KEPT)} },
        { file: 'tests/gen/test_gen_fails.py', content: ${JSON.stringify(FAILS)} },
      ];
      return {
        files: request.feedback ? [] : files,
        plan: { summary: 'two tests of ' + request.inputs.join(', '), tests: files.map((f) => ({ file: f.file, test: f.file })) },
      };
    },
  };
}
`;

async function pythonProject(): Promise<string> {
  const root = await workspace(join(FIXTURES, 'python'));
  await writeFile(join(root, 'suture.config.json'), CONFIG);
  return root;
}

describe('suture autorun and suture generate tests', () => {
  it('autorun wraps a user generator and takes the rejected files back out with git (gitCheckout)', async (t) => {
    requirePythonModule(t, 'coverage', 'python3 -m pip install coverage');
    const root = await pythonProject();
    await writeFile(join(root, 'gen.py'), USER_GENERATOR);
    commitAll(root);
    const before = await tree(root);
    const r = await suture(
      [
        'autorun',
        '--after',
        'python3 gen.py',
        '--generated',
        'tests/**',
        '--target',
        'calc/ops.py',
        '--rollback',
        'gitCheckout',
        '--json',
      ],
      root,
    );
    expect(r.code, r.stderr).toBe(0);
    const report = AutoRunReportSchema.parse(JSON.parse(r.stdout));
    expect(Object.fromEntries(report.tests.map((x) => [x.file, x.verdict]))).toEqual({
      'tests/gen/test_gen_fails.py': 'fails',
      'tests/gen/test_gen_low.py': 'kept',
      'tests/test_ops.py': 'fails',
    });
    expect(report.generations[0]!.source).toBe('python3 gen.py');
    expect(
      report.audit.some(
        (a) => a.kind === 'command' && a.command === 'git checkout HEAD -- tests/test_ops.py',
      ),
    ).toBe(true);
    expect(report.rollback.restored.sort()).toEqual(['tests/gen/test_gen_fails.py', 'tests/test_ops.py']);
    // the tracked file is back as committed, the new wrong test gone, the good one stays
    const status = git(root, 'status', '--porcelain', '--untracked-files=all')
      .split('\n')
      .filter((l) => l && !l.includes('__pycache__'));
    expect(status).toEqual(['?? tests/gen/test_gen_low.py']);
    const after = await tree(root);
    expect(after['tests/test_ops.py']).toBe(before['tests/test_ops.py']);
    expect(r.stderr).toContain('kept    tests/gen/test_gen_low.py');
  }, 600_000);

  it('generate tests loads a generator plugin by path, and manual rollback leaves the rejected file and says what to do', async (t) => {
    requirePythonModule(t, 'coverage', 'python3 -m pip install coverage');
    const root = await pythonProject();
    await writeFile(join(root, 'local-generator.mjs'), PLUGIN);
    const r = await suture(
      [
        'generate',
        'tests',
        'calc/ops.py',
        '--generator',
        './local-generator.mjs',
        '--rollback',
        'manual',
        '--flake-runs',
        '2',
      ],
      root,
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('kept    tests/gen/test_gen_low.py');
    expect(r.stdout).toContain('removed tests/gen/test_gen_fails.py');
    expect(r.stdout).toContain('to do: tests/gen/test_gen_fails.py was created (fails: ');
    expect(r.stdout).toContain('`rm tests/gen/test_gen_fails.py`');
    expect(existsSync(join(root, 'tests/gen/test_gen_fails.py'))).toBe(true);
    const md = r.stdout.match(/report: (\S+)/)![1]!;
    const report = AutoRunReportSchema.parse(
      JSON.parse(await readFile(join(root, md.replace(/report\.md$/, 'report.json')), 'utf8')),
    );
    expect(report.rollback).toMatchObject({
      strategy: 'manual',
      restored: [],
      left: ['tests/gen/test_gen_fails.py'],
    });
    expect(report.tests.find((x) => x.file === 'tests/gen/test_gen_fails.py')!.runs).toEqual([
      'failed',
      'failed',
    ]);
  }, 600_000);

  it('names what is wrong with the command line', async () => {
    const root = await pythonProject();
    const noGenerator = await suture(['generate', 'tests', 'calc/ops.py'], root);
    expect(noGenerator.code).toBe(2);
    expect(noGenerator.stderr).toContain('needs --generator <plugin>');
    const badRollback = await suture(
      [
        'autorun',
        '--after',
        'true',
        '--generated',
        'tests/gen/**',
        '--target',
        'calc/ops.py',
        '--rollback',
        'undo',
      ],
      root,
    );
    expect(badRollback.code).toBe(2);
    expect(badRollback.stderr).toContain(
      '--rollback expects one of restoreSnapshot, gitCheckout, manual, got "undo"',
    );
    const noTarget = await suture(['autorun', '--after', 'true', '--generated', 'tests/gen/**'], root);
    expect(noTarget.code).toBe(2);
    expect(noTarget.stderr).toContain('needs --target');
  });
});
