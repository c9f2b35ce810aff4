import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, commitAll, git, readConfig, suture, workspace, writeTree } from './support.js';

afterAll(cleanup);

const TEST = 'def test_ok():\n    assert True\n';

describe('suture init in a repository with dependencies, build outputs and a submodule', () => {
  it('asks the runners only about its own folders and says what it skipped and why', async () => {
    // a library whose own pytest suite must not become a project of the repository using it
    const origin = await workspace();
    await writeTree(origin, { 'pytest.ini': '[pytest]\n', 'tests/test_ext.py': TEST });
    commitAll(origin);

    const dir = await workspace();
    await writeTree(dir, {
      '.gitignore': 'node_modules/\nbuild/\ngenerated/\n',
      'app/pytest.ini': '[pytest]\n',
      'app/tests/test_app.py': TEST,
      // every folder below holds what pytest detection looks for
      'node_modules/left-pad/tests/test_pad.py': TEST,
      'build/lib/conftest.py': '',
      'cmake-build-debug/tests/test_gen.py': TEST,
      'generated/tests/test_gen.py': TEST,
      'tools/venv/pyvenv.cfg': 'home = /usr/bin\n',
      'tools/venv/lib/tests/test_site.py': TEST,
      'third_party/json/tests/test_json.py': TEST,
    });
    commitAll(dir);
    git(dir, 'submodule', 'add', '-q', origin, 'libs/ext');
    git(dir, 'commit', '-qm', 'ext');

    const init = await suture(['init'], dir);
    expect(init.stderr).toBe('');
    expect(init.code).toBe(0);
    expect(init.stdout.split('\n').filter((l) => l.startsWith('skipped'))).toEqual([
      'skipped 2 folders of dependencies or vendored code: node_modules, third_party',
      'skipped 1 Python virtualenv: tools/venv',
      'skipped 2 build output folders: build, cmake-build-debug',
      'skipped 1 git submodule (pass --include-submodules to look inside): libs/ext',
      'skipped 1 git-ignored folder: generated',
    ]);
    expect((await readConfig(dir)).projects).toEqual([{ name: 'app', root: 'app', runner: 'pytest' }]);

    // asked to, it looks inside the submodule, and keeps the project the config already has
    const again = await suture(['init', '--force', '--include-submodules'], dir);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain('kept pytest project "app" in app from the existing config\n');
    expect(again.stdout).toContain('found pytest project "ext" in libs/ext (pytest.ini)\n');
    expect(again.stdout).not.toMatch(/submodule/);
    expect((await readConfig(dir)).projects).toEqual([
      { name: 'app', root: 'app', runner: 'pytest' },
      { name: 'ext', root: 'libs/ext', runner: 'pytest' },
    ]);
  });

  it('refuses to replace an existing config without --force, naming it', async () => {
    const dir = await workspace();
    await writeTree(dir, { 'app/pytest.ini': '[pytest]\n', 'suture.config.yaml': 'projects: []\n' });
    const r = await suture(['init'], dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`suture.config.yaml already exists; pass --force to overwrite it`);
    const forced = await suture(['init', '--force'], dir);
    expect(forced.code).toBe(2);
    expect(forced.stderr).toMatch(
      /suture\.config\.yaml exists and is read before the suture\.config\.json that suture init writes; move it away/,
    );
  });
});
