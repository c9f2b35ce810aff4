import { execFileSync } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, REPO, suture, workspace } from './cli-support.js';

afterAll(cleanup);

const git = (dir: string, ...args: string[]): string =>
  execFileSync('git', ['-c', 'user.email=t@e', '-c', 'user.name=t', ...args], { cwd: dir, encoding: 'utf8' });

/** Commits everything in dir, so that only what a run leaves behind can show up afterwards. */
function commitAll(dir: string): void {
  git(dir, 'init', '-q');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-qm', 'project');
}

const status = (dir: string): string => git(dir, 'status', '--porcelain', '--untracked-files=all');

// A CMake project of one C test program that fails, so the run goes through the whole gate.
const CMAKE = `cmake_minimum_required(VERSION 3.16)
project(sum C)
enable_testing()
add_executable(sum_test sum_test.c)
add_test(NAME sum_test COMMAND sum_test)
`;
const SUM_TEST = `#include <stdio.h>

static int sum(int a, int b) { return a + b + 1; }

int main(void) {
  if (sum(2, 2) != 4) {
    printf("sum(2, 2) is %d, expected 4\\n", sum(2, 2));
    return 1;
  }
  return 0;
}
`;

describe('the folders a run creates in a git repository', () => {
  it('leave git status empty after a pytest run and a CTest run, without a .gitignore entry of the user', async () => {
    const dir = await workspace();
    await mkdir(join(dir, 'py'));
    execFileSync('cp', ['-r', `${join(REPO, 'packages/runner-pytest/test/e2e/shop')}/.`, join(dir, 'py')]);
    await mkdir(join(dir, 'c'));
    await writeFile(join(dir, 'c/CMakeLists.txt'), CMAKE);
    await writeFile(join(dir, 'c/sum_test.c'), SUM_TEST);
    await writeFile(
      join(dir, 'suture.config.json'),
      JSON.stringify({
        projects: [
          { name: 'py', root: 'py', runner: ['pytest', { env: { SUTURE_FLAKY_MARKER: '/nonexistent/x' } }] },
          { name: 'c', root: 'c', runner: 'ctest' },
        ],
        fixers: ['hints'],
      }),
    );
    commitAll(dir);
    expect(status(dir)).toBe('');

    const r = await suture(['run', '--json', '--reporter', 'json'], dir);
    expect(r.code).toBe(1);
    const report = JSON.parse(r.stdout);
    // both projects really ran: pytest's tests, and CTest's in the build folder it made
    expect(
      report.projects.map((p: { name: string; totals: { tests: number } }) => [p.name, p.totals.tests]),
    ).toEqual([
      ['py', 5],
      ['c', 1],
    ]);
    expect(await readFile(join(dir, 'c/build-suture/CMakeCache.txt'), 'utf8')).toMatch(/CMAKE_PROJECT_NAME/);
    expect(await readFile(join(dir, '.suture/.gitignore'), 'utf8')).toMatch(/^\*$/m);
    expect(await readFile(join(dir, 'c/build-suture/.gitignore'), 'utf8')).toMatch(/^\*$/m);
    expect(status(dir)).toBe('');

    // a second run reuses both folders and leaves nothing either
    expect((await suture(['run', '--reporter', 'json'], dir)).code).toBe(1);
    expect(status(dir)).toBe('');
  });

  it('init says the folders ignore themselves', async () => {
    const dir = await workspace();
    await mkdir(join(dir, 'c'));
    await writeFile(join(dir, 'c/CMakeLists.txt'), CMAKE);
    await writeFile(join(dir, 'c/sum_test.c'), SUM_TEST);
    const init = await suture(['init'], dir);
    expect(init.code).toBe(0);
    expect(init.stdout).toMatch(
      /suture writes its run state to \.suture\/ and its C\/C\+\+ builds to build-suture\/; each folder holds a \.gitignore of its own/,
    );
  });
});
