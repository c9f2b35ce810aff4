import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SummaryCache } from '@suture/core/analysis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readCompileDb } from './compile-db.js';
import { createCppCache } from './cpp-model.js';
import { CppProject, DefinitionIndex } from './cpp-project.js';
import { summarizeCpp, type CppFile } from './cpp-summary.js';

const summarize = (text: string): CppFile => summarizeCpp(createCppCache(1).parseText(text).tree);

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'suture-cpp-macros-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const MACROS = [
  '#ifndef GEOM_MACROS_H',
  '#define GEOM_MACROS_H',
  '#ifndef GEOM_LONG_NAMES',
  '#define GEOM_API(name) name',
  '#else',
  '#define GEOM_API(name) geom_api_##name',
  '#endif',
  '#if defined(GEOM_TRACE)',
  '#define TRACED(name) traced_##name',
  '#elif !defined GEOM_QUIET',
  '#define TRACED(name) loud_##name',
  '#endif',
  '#endif',
  '',
].join('\n');

describe('function-defining macros under preprocessor conditions', () => {
  it('records the nearest #ifdef, #ifndef, #if defined or #elif a macro is defined under, negated in #else', () => {
    expect(summarize(MACROS).macros.map((m) => [m.name, m.body, m.when])).toEqual([
      ['GEOM_API', 'name', { name: 'GEOM_LONG_NAMES', defined: false }],
      ['GEOM_API', 'geom_api_##name', { name: 'GEOM_LONG_NAMES', defined: true }],
      ['TRACED', 'traced_##name', { name: 'GEOM_TRACE', defined: true }],
      ['TRACED', 'loud_##name', { name: 'GEOM_QUIET', defined: false }],
    ]);
  });

  it("expands a definition's name by the macro the build's defines select for its unit", async () => {
    await mkdir(join(root, 'include'));
    await mkdir(join(root, 'src'));
    await mkdir(join(root, 'build-suture'));
    await writeFile(join(root, 'include/macros.h'), MACROS);
    await writeFile(
      join(root, 'src/diag.cpp'),
      '#include "macros.h"\nint GEOM_API(diagonal)(int w, int h) {\n  return w * w + h * h;\n}\n',
    );
    const unit = (defines: string[]) => [
      {
        directory: join(root, 'build-suture'),
        file: join(root, 'src/diag.cpp'),
        arguments: ['c++', `-I${join(root, 'include')}`, ...defines, '-c', 'src/diag.cpp'],
        output: 'CMakeFiles/geom.dir/src/diag.cpp.o',
      },
    ];
    const indexOf = async (defines: string[]) => {
      await writeFile(join(root, 'build-suture/compile_commands.json'), JSON.stringify(unit(defines)));
      const db = await readCompileDb(root);
      const summaries = new SummaryCache<CppFile>({ name: 'cpp', version: 2, summarize });
      const project = new CppProject(
        root,
        ['include/macros.h', 'src/diag.cpp'],
        db,
        summaries,
        new DefinitionIndex(),
      );
      return { db, index: await project.index('src/diag.cpp') };
    };
    const long = await indexOf(['-DGEOM_LONG_NAMES', '-D', 'GEOM_LEVEL=2']);
    expect(long.db!.defines.get('src/diag.cpp')).toEqual(['GEOM_LONG_NAMES', 'GEOM_LEVEL']);
    expect(long.index!.defs.get('geom_api_diagonal')?.[0]?.name).toBe('diagonal');
    const short = await indexOf([]);
    expect(short.index!.defs.has('geom_api_diagonal')).toBe(false);
    expect(short.index!.defs.get('diagonal')?.[0]?.name).toBe('diagonal');
  });
});
