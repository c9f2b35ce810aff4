import { readFile } from 'node:fs/promises';
import { posix } from 'node:path';
import { join } from 'node:path';
import type { Candidate } from './types.js';
import type { Snapshot } from './snapshot.js';

/** The line added to the project's CMakeLists.txt; the rollback takes it out with the rest. */
export const MARKER = '# suture: generated tests';

const KEYWORDS = new Set(['PRIVATE', 'PUBLIC', 'INTERFACE', 'LINK_PRIVATE', 'LINK_PUBLIC']);
const isTestLibrary = (name: string): boolean => /^(GTest::|gtest|gmock)/i.test(name);

/** The CTest entry and CMake target of a generated C/C++ test file. */
export function entryOf(file: string): string {
  return `suture_gen_${posix
    .basename(file)
    .replace(/\.[^.]+$/, '')
    .replace(/[^A-Za-z0-9_]/g, '_')}`;
}

/**
 * The libraries the project's own GoogleTest programs link (those of every
 * `target_link_libraries` that names GTest, less GTest itself): what a generated test of the
 * same code needs. Falls back to every library the file defines.
 */
export function linkedLibraries(cmakeLists: string): string[] {
  const text = cmakeLists.replace(/#.*$/gm, '');
  const libs = new Set<string>();
  for (const m of text.matchAll(/target_link_libraries\s*\(([^)]*)\)/g)) {
    const [, ...args] = m[1]!.trim().split(/\s+/);
    if (!args.some(isTestLibrary)) continue;
    for (const a of args) if (!KEYWORDS.has(a) && !isTestLibrary(a)) libs.add(a);
  }
  if (libs.size === 0)
    for (const m of text.matchAll(/add_library\s*\(\s*([A-Za-z0-9_.:+-]+)/g)) libs.add(m[1]!);
  return [...libs];
}

function folderList(folder: string, candidates: readonly Candidate[], libs: readonly string[]): string {
  const lines = [
    '# Written by suture for the generated GoogleTest programs of this folder; removed with them.',
    'if(NOT TARGET GTest::gtest_main)',
    '  find_package(GTest REQUIRED)',
    'endif()',
  ];
  for (const c of candidates) {
    const entry = c.entry ?? entryOf(c.file);
    lines.push(
      '',
      `add_executable(${entry} ${posix.relative(folder, c.file)})`,
      `target_link_libraries(${entry} PRIVATE ${[...libs, 'GTest::gtest_main'].join(' ')})`,
      `add_test(NAME ${entry} COMMAND ${entry})`,
    );
  }
  return `${lines.join('\n')}\n`;
}

/**
 * Adds the generated C/C++ test files to the CMake build: one `CMakeLists.txt` per folder of
 * generated files listing a GoogleTest program per file, registered with CTest, and an
 * `add_subdirectory` of that folder at the end of the project's CMakeLists.txt. With no
 * candidate left, the folder's list and the added line go back to what they were.
 */
export async function wireCmake(
  root: string,
  candidates: readonly Candidate[],
  snapshot: Snapshot,
  link: readonly string[] | undefined,
): Promise<void> {
  const rootList = 'CMakeLists.txt';
  const byFolder = new Map<string, Candidate[]>();
  for (const c of candidates) {
    const folder = posix.dirname(c.file);
    byFolder.set(folder, [...(byFolder.get(folder) ?? []), c]);
  }
  const wired = snapshot.files().filter((f) => f !== rootList && f.endsWith('/CMakeLists.txt'));
  for (const list of wired)
    if (!byFolder.has(posix.dirname(list)))
      await snapshot.restore([list], 'no generated test left in the folder');
  if (byFolder.size === 0) {
    if (snapshot.has(rootList)) await snapshot.restore([rootList], 'no generated test left');
    return;
  }
  const current = await readFile(join(root, rootList), 'utf8');
  const libs = link ?? linkedLibraries(current);
  const lines: string[] = [];
  for (const [folder, list] of byFolder) {
    const listFile = folder === '.' ? rootList : `${folder}/CMakeLists.txt`;
    const theirs = !snapshot.has(listFile) && (await exists(join(root, listFile)));
    if (folder === '.' || theirs)
      throw new Error(
        `generated C/C++ tests go in a folder of their own: ${listFile} already exists; write them to a new folder such as tests/generated`,
      );
    await snapshot.write(
      listFile,
      folderList(folder, list, libs),
      'add the generated tests to the CMake build',
    );
    lines.push(`add_subdirectory(${folder}) ${MARKER}`);
  }
  const kept = current
    .split('\n')
    .filter((l) => !l.includes(MARKER))
    .join('\n');
  const updated = `${kept.replace(/\n*$/, '\n')}${lines.join('\n')}\n`;
  if (updated !== current)
    await snapshot.write(rootList, updated, 'add the generated tests folder to the CMake build');
}

const exists = (path: string): Promise<boolean> =>
  readFile(path).then(
    () => true,
    () => false,
  );
