import { readdir, readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { DetectedProject } from '@suture/core';

async function read(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch {
    return undefined;
  }
}

async function hasTestFiles(dir: string): Promise<boolean> {
  try {
    return (await readdir(dir)).some((f) => /^test_.*\.py$|_test\.py$/.test(f));
  } catch {
    return false;
  }
}

/** A folder configured for pytest, or one holding pytest-style tests. */
export async function detectPytest(dir: string): Promise<DetectedProject | null> {
  const name = basename(dir);
  if (await read(join(dir, 'pytest.ini'))) return { name, reason: 'pytest.ini' };
  if ((await read(join(dir, 'pyproject.toml')))?.includes('[tool.pytest.ini_options]'))
    return { name, reason: 'pyproject.toml [tool.pytest.ini_options]' };
  if ((await read(join(dir, 'setup.cfg')))?.includes('[tool:pytest]'))
    return { name, reason: 'setup.cfg [tool:pytest]' };
  if ((await read(join(dir, 'tox.ini')))?.includes('[pytest]')) return { name, reason: 'tox.ini [pytest]' };
  if ((await read(join(dir, 'conftest.py'))) !== undefined) return { name, reason: 'conftest.py' };
  if ((await hasTestFiles(join(dir, 'tests'))) || (await hasTestFiles(join(dir, 'test'))))
    return { name, reason: 'test_*.py files in tests/' };
  if (await hasTestFiles(dir)) return { name, reason: 'test_*.py files' };
  return null;
}
