import { mkdtemp, readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AuditLog } from './audit.js';
import { entryOf, linkedLibraries, wireCmake } from './cmake.js';
import { Snapshot } from './snapshot.js';

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

async function setup(): Promise<{ root: string; snapshot: Snapshot; audit: AuditLog }> {
  const root = await mkdtemp(join(tmpdir(), 'suture-snapshot-'));
  dirs.push(root);
  const audit = new AuditLog(join(root, '.suture', 'audit.jsonl'), (s) => s);
  return { root, audit, snapshot: new Snapshot(root, join(root, '.suture', 'snapshot'), audit) };
}

describe('Snapshot', () => {
  it('puts changed files back, removes created files and the folders it made, and logs each step', async () => {
    const { root, snapshot, audit } = await setup();
    await writeFile(join(root, 'CMakeLists.txt'), 'project(x)\n');
    await snapshot.write('CMakeLists.txt', 'project(x)\nadd_subdirectory(tests/gen)\n', 'wire');
    await snapshot.write('tests/gen/a_test.cpp', 'TEST(A, B) {}\n', 'generated');
    const restored = await snapshot.restore();
    expect(restored).toEqual({ restored: ['CMakeLists.txt', 'tests/gen/a_test.cpp'], conflicts: [] });
    expect(await readFile(join(root, 'CMakeLists.txt'), 'utf8')).toBe('project(x)\n');
    expect(existsSync(join(root, 'tests'))).toBe(false);
    expect(audit.entries.map((e) => e.kind)).toEqual(['write', 'write', 'restore', 'restore']);
    const lines = (await readFile(join(root, '.suture', 'audit.jsonl'), 'utf8')).trim().split('\n');
    expect(lines).toHaveLength(4);
  });

  it('keeps a file the user changed after the run wrote it, and says so', async () => {
    const { root, snapshot } = await setup();
    await snapshot.write('gen/test_a.py', 'def test_a(): pass\n', 'generated');
    await writeFile(join(root, 'gen/test_a.py'), 'def test_a(): assert True  # mine\n');
    const restored = await snapshot.restore();
    expect(restored.restored).toEqual([]);
    expect(restored.conflicts).toEqual([
      { file: 'gen/test_a.py', reason: 'changed by someone else during the run; their version is kept' },
    ]);
    expect(await readFile(join(root, 'gen/test_a.py'), 'utf8')).toContain('# mine');
  });
});

describe('CMake wiring', () => {
  it('links what the project tests link, less GoogleTest', () => {
    expect(
      linkedLibraries(
        'add_library(calc a.cpp)\nadd_library(io b.cpp)\ntarget_link_libraries(calc_tests PRIVATE calc io GTest::gtest_main)\n',
      ),
    ).toEqual(['calc', 'io']);
    expect(linkedLibraries('add_library(calc a.cpp)\n')).toEqual(['calc']);
    expect(entryOf('tests/gen/low-test.cpp')).toBe('suture_gen_low_test');
  });

  it('adds a folder list and one marked line, and takes both out when no file is left', async () => {
    const { root, snapshot } = await setup();
    const original = 'project(calc)\nadd_library(calc a.cpp)\n';
    await writeFile(join(root, 'CMakeLists.txt'), original);
    await mkdir(join(root, 'tests/gen'), { recursive: true });
    await writeFile(join(root, 'tests/gen/a_test.cpp'), '');
    const candidate = {
      file: 'tests/gen/a_test.cpp',
      generation: 1,
      planned: [],
      entry: 'suture_gen_a_test',
    };
    await wireCmake(root, [candidate], snapshot, undefined);
    expect(await readFile(join(root, 'CMakeLists.txt'), 'utf8')).toBe(
      `${original}add_subdirectory(tests/gen) # suture: generated tests\n`,
    );
    const list = await readFile(join(root, 'tests/gen/CMakeLists.txt'), 'utf8');
    expect(list).toContain('add_executable(suture_gen_a_test a_test.cpp)');
    expect(list).toContain('target_link_libraries(suture_gen_a_test PRIVATE calc GTest::gtest_main)');
    await wireCmake(root, [], snapshot, undefined);
    expect(await readFile(join(root, 'CMakeLists.txt'), 'utf8')).toBe(original);
    expect(existsSync(join(root, 'tests/gen/CMakeLists.txt'))).toBe(false);
  });

  it('refuses a folder that has a CMakeLists.txt of its own', async () => {
    const { root, snapshot } = await setup();
    await writeFile(join(root, 'CMakeLists.txt'), 'project(calc)\n');
    await mkdir(join(root, 'tests'), { recursive: true });
    await writeFile(join(root, 'tests/CMakeLists.txt'), 'add_executable(t t.cpp)\n');
    await expect(
      wireCmake(root, [{ file: 'tests/new_test.cpp', generation: 1, planned: [] }], snapshot, undefined),
    ).rejects.toThrow(
      'tests/CMakeLists.txt already exists; write them to a new folder such as tests/generated',
    );
  });
});
