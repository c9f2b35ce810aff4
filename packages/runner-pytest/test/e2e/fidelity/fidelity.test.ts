import { mkdir, readFile, realpath, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pytest from '../../../src/index.js';
import { cleanUp, copyOf, exec, recordingLogger, runIn, statusById, tempDir } from '../kit/project.js';

const here = fileURLToPath(new URL('.', import.meta.url));

/** How suture reports each outcome pytest's verbose report prints (xfail is a skip, as in JUnit). */
const NATIVE_STATUS: Record<string, string> = {
  PASSED: 'passed',
  FAILED: 'failed',
  ERROR: 'error',
  SKIPPED: 'skipped',
  XFAIL: 'skipped',
  XPASS: 'passed',
};

interface Seen {
  argv: string[];
  path: string[];
  env: Record<string, string>;
  cwd: string;
}

async function seen(file: string): Promise<Seen> {
  const value = JSON.parse(await readFile(file, 'utf8')) as Seen;
  delete value.env.SEEN_FILE;
  return value;
}

// The fixture's colour test expects the colour a terminal user gets.
const colourVars = ['NO_COLOR', 'FORCE_COLOR', 'PY_COLORS', 'CLICOLOR_FORCE'];
const saved: Record<string, string | undefined> = {};
beforeAll(() => {
  for (const key of colourVars) {
    saved[key] = process.env[key];
    delete process.env[key];
  }
});
afterAll(async () => {
  for (const key of colourVars) if (saved[key] !== undefined) process.env[key] = saved[key];
  await cleanUp();
});

describe('pytest runs as it runs natively', () => {
  it('gives the results of a plain `python -m pytest`, and the tests see the same argv, path and environment', async () => {
    const root = await copyOf(here, 'native');
    const dir = await tempDir('seen');
    const native = await exec('python3', ['-m', 'pytest', '-v', '-rA'], {
      cwd: root,
      env: { ...process.env, SEEN_FILE: join(dir, 'native.json') },
    });
    expect(native.code).toBe(0);
    const nativeStatus = Object.fromEntries(
      [...native.stdout.matchAll(/^(\S+::\S+) (PASSED|FAILED|ERROR|SKIPPED|XFAIL|XPASS)\b/gm)].map((m) => [
        m[1],
        NATIVE_STATUS[m[2]!],
      ]),
    );
    expect(Object.keys(nativeStatus)).toHaveLength(9);

    const result = await runIn(
      pytest({ args: ['-v', '-rA'], env: { SEEN_FILE: join(dir, 'suture.json') } }),
      root,
    );
    expect(result.status).toBe('passed');
    expect(statusById(result)).toEqual(nativeStatus);
    expect(result.diagnostics).toEqual([]);

    const underSuture = await seen(join(dir, 'suture.json'));
    expect(underSuture).toEqual(await seen(join(dir, 'native.json')));
    expect(underSuture.argv.slice(1)).toEqual(['-v', '-rA']);
    expect(underSuture.argv[0]).toMatch(/pytest[/\\]__main__\.py$/);
    for (const key of colourVars) expect(underSuture.env).not.toHaveProperty(key);
  });

  it('passes the runner option "args" to pytest, and the tests see them in sys.argv', async () => {
    const root = await copyOf(here, 'native');
    const file = join(await tempDir('seen'), 'seen.json');
    const result = await runIn(
      pytest({ args: ['-k', 'not excluded_by_args'], env: { SEEN_FILE: file } }),
      root,
    );
    expect(result.status).toBe('passed');
    expect(result.tests.map((t) => t.id)).toContain('tests/test_native.py::TestGroup::test_method');
    expect(result.tests.map((t) => t.id)).not.toContain('tests/test_native.py::test_excluded_by_args');
    expect((await seen(file)).argv.slice(1)).toEqual(['-k', 'not excluded_by_args']);
  });

  it('runs none of its own code while a test runs: tests that count live objects pass as natively', async () => {
    // the per-test time limit's watchdog thread sleeps through every test; woken at each test's
    // start, it ran inside the tests' bodies and changed what they counted (about 45 % failed)
    const root = await copyOf(here, 'quiet');
    const native = await exec('python3', ['-m', 'pytest', '-q', '-p', 'no:cacheprovider'], { cwd: root });
    expect(native.stdout).toContain('60 passed');
    const result = await runIn(pytest(), root);
    const statuses = Object.values(statusById(result));
    expect(statuses).toHaveLength(60);
    expect(statuses.filter((s) => s !== 'passed')).toEqual([]);
    expect(result.status).toBe('passed');
  });
});

describe('the interpreter and the import path', () => {
  let venv: string;
  let sitePackages: string;
  beforeAll(async () => {
    // A virtualenv with an installed copy of the project's package that differs from its source.
    venv = await tempDir('venv');
    const made = await exec('python3', ['-m', 'venv', '--without-pip', '--system-site-packages', venv], {
      cwd: venv,
    });
    expect(made.code).toBe(0);
    const paths = await exec(
      join(venv, 'bin', 'python'),
      ['-c', 'import sysconfig; print(sysconfig.get_paths()["purelib"])'],
      { cwd: venv },
    );
    sitePackages = await realpath(paths.stdout.trim());
    await mkdir(join(sitePackages, 'mathlib'), { recursive: true });
    await writeFile(
      join(sitePackages, 'mathlib', '__init__.py'),
      'def origin():\n    return "installed copy"\n',
    );
  });

  it('runs the tests with the runner option "python", and warns when an installed copy shadows the source', async () => {
    const root = await copyOf(here, 'srclayout');
    const logger = recordingLogger();
    const result = await runIn(pytest({ python: join(venv, 'bin', 'python') }), root, { logger });
    expect(result.tests).toEqual([
      expect.objectContaining({ id: 'tests/test_lib.py::test_imports_the_source', status: 'failed' }),
    ]);
    expect(result.tests[0]!.message).toMatch(/'installed copy' == 'source'/);
    const warning = result.diagnostics.find((d) => d.source === 'pytest-import');
    expect(warning).toMatchObject({ severity: 'warning', file: 'src/mathlib', symbol: 'mathlib' });
    expect(warning!.message).toContain(join(sitePackages, 'mathlib', '__init__.py'));
    expect(warning!.message).toMatch(/env: \{ "PYTHONPATH": "src" \}/);
    expect(logger.warnings).toEqual([warning!.message]);
  });

  it('puts the source first with the runner option env: { PYTHONPATH: "src" }', async () => {
    const root = await copyOf(here, 'srclayout');
    const logger = recordingLogger();
    const result = await runIn(
      pytest({ python: join(venv, 'bin', 'python'), env: { PYTHONPATH: 'src' } }),
      root,
      { logger },
    );
    expect(statusById(result)).toEqual({ 'tests/test_lib.py::test_imports_the_source': 'passed' });
    expect(result.diagnostics).toEqual([]);
    expect(logger.warnings).toEqual([]);
  });

  it('does not take a module the project builds from its own files under another name for an installed copy', async () => {
    // toolz's tlz: `tk` puts the project's `toolkit` in its place, so tk's file is toolkit's
    const root = await copyOf(here, 'alias');
    const logger = recordingLogger();
    const result = await runIn(pytest(), root, { logger });
    expect(statusById(result)).toEqual({ 'tests/test_alias.py::test_alias': 'passed' });
    expect(result.diagnostics).toEqual([]);
    expect(logger.warnings).toEqual([]);
  });

  it('says how to install pytest when the interpreter lacks it', async () => {
    const bare = await tempDir('bare-venv');
    expect((await exec('python3', ['-m', 'venv', '--without-pip', bare], { cwd: bare })).code).toBe(0);
    const python = join(bare, 'bin', 'python');
    const result = await runIn(pytest({ python }), await copyOf(here, 'srclayout'));
    expect(result.status).toBe('error');
    expect(result.error).toBe(
      `pytest is not installed for ${python}; install it with \`${python} -m pip install pytest\`, or set the runner option "python" to the interpreter that has it, or create the project's .venv`,
    );
  });
});
