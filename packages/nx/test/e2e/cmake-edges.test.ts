import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { git, nx, nxWorkspace } from './workspace.js';

const dirs: string[] = [];
afterAll(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

const project = (name: string): string => JSON.stringify({ name });
const cmake = (body: string): string =>
  `cmake_minimum_required(VERSION 3.16)\nproject(p C)\nenable_testing()\n${body}`;

/**
 * geom defines a library that viewer links; shapes builds util's folder with add_subdirectory;
 * notes (plain CMake) uses neither. Nx reads none of this from CMakeLists.txt itself.
 */
const FILES = {
  'libs/geom/project.json': project('geom'),
  'libs/geom/CMakeLists.txt': cmake('add_library(geom geom.c)\n'),
  'libs/geom/geom.c': 'int area(int w, int h) { return w * h; }\n',
  'libs/util/project.json': project('util'),
  'libs/util/CMakeLists.txt': 'add_library(util util.c)\n',
  'libs/util/util.c': 'int twice(int x) { return 2 * x; }\n',
  'apps/viewer/project.json': project('viewer'),
  'apps/viewer/CMakeLists.txt': cmake(
    'add_executable(viewer_test viewer_test.c)\ntarget_link_libraries(viewer_test PRIVATE geom)\nadd_test(NAME viewer_test COMMAND viewer_test)\n',
  ),
  'apps/viewer/viewer_test.c': 'int area(int, int);\nint main(void) { return area(2, 3) == 6 ? 0 : 1; }\n',
  'apps/shapes/project.json': project('shapes'),
  'apps/shapes/CMakeLists.txt': cmake(
    'add_subdirectory(../../libs/util util)\nadd_executable(shapes_test shapes_test.c)\ntarget_link_libraries(shapes_test util)\nadd_test(NAME shapes_test COMMAND shapes_test)\n',
  ),
  'apps/shapes/shapes_test.c': 'int twice(int);\nint main(void) { return twice(2) == 4 ? 0 : 1; }\n',
  'apps/notes/project.json': project('notes'),
  'apps/notes/CMakeLists.txt': cmake(
    'add_executable(notes_test notes_test.c)\nadd_test(NAME notes_test COMMAND notes_test)\n',
  ),
  'apps/notes/notes_test.c': 'int main(void) { return 0; }\n',
};

const CONFIG = {
  projects: [
    { name: 'geom', root: 'libs/geom', runner: 'ctest' },
    { name: 'viewer', root: 'apps/viewer', runner: 'ctest' },
    { name: 'shapes', root: 'apps/shapes', runner: 'ctest' },
    { name: 'notes', root: 'apps/notes', runner: 'ctest' },
  ],
  fixers: [],
};

describe('@suture/nx dependency edges from CMake, in a real Nx workspace', () => {
  it('adds target_link_libraries and add_subdirectory edges, and nx affected follows them', async () => {
    const dir = await nxWorkspace(FILES, CONFIG);
    dirs.push(dir);
    const printed = nx(dir, ['graph', '--file=stdout']).output;
    const graph = JSON.parse(printed.slice(printed.indexOf('{'))) as {
      graph: { dependencies: Record<string, Array<{ target: string; type: string }>> };
    };
    const deps = (name: string): string[] =>
      (graph.graph.dependencies[name] ?? []).map((d) => d.target).sort();
    expect(deps('viewer')).toEqual(['geom']);
    expect(deps('shapes')).toEqual(['util']);
    expect(deps('notes')).toEqual([]);
    expect(deps('geom')).toEqual([]);

    // a change in the library affects the project that links it, and nothing else
    await writeFile(join(dir, 'libs/geom/geom.c'), 'int area(int w, int h) { return h * w; }\n');
    const affected = nx(dir, ['show', 'projects', '--affected', '--base=HEAD']);
    expect(affected.output.trim().split('\n').sort()).toEqual(['geom', 'viewer']);
    git(dir, ['checkout', '--', 'libs/geom/geom.c']);
    await writeFile(join(dir, 'libs/util/util.c'), 'int twice(int x) { return x + x; }\n');
    const viaSubdirectory = nx(dir, ['show', 'projects', '--affected', '--base=HEAD']);
    expect(viaSubdirectory.output.trim().split('\n').sort()).toEqual(['shapes', 'util']);
  });
});
