// Generated multi-file projects for the localization benchmark, one per language, from a seed: many
// small modules whose functions call each other across files, reached from the tests through the
// constructs a scope must see through (star imports and re-exports, aliases, wrapping decorators;
// `export *`, CommonJS exports, path aliases; umbrella headers, function-defining macros, sources
// named unlike their headers). Each function's result is known, so every test passes until a
// mutant breaks a function it reaches.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { rng } from './localization-mutants.mjs';

/**
 * The call graph: `modules` modules of `perModule` functions; function j of module i calls at
 * most one function of a later module (so the graph is acyclic and chains run across files).
 */
export function plan({ modules, perModule, seed }) {
  const random = rng(seed);
  const fns = [];
  for (let i = 0; i < modules; i++)
    for (let j = 0; j < perModule; j++) {
      // calls stay within a block of ten modules: import chains stay short, as in real packages
      const blockEnd = Math.min(modules, (Math.floor(i / 10) + 1) * 10);
      const calls =
        i + 1 < blockEnd && random() < 0.6
          ? {
              module: i + 1 + Math.floor(random() * Math.min(3, blockEnd - i - 1)),
              index: Math.floor(random() * perModule),
            }
          : undefined;
      fns.push({
        module: i,
        index: j,
        add: 1 + Math.floor(random() * 9),
        threshold: 5 + Math.floor(random() * 20),
        calls,
      });
    }
  const at = (m, j) => fns[m * perModule + j];
  // f(x) = v - 1 if v > t else v + 3, with v = callee(x) + add (or x + add)
  const value = (fn, x) => {
    const v = (fn.calls ? value(at(fn.calls.module, fn.calls.index), x) : x) + fn.add;
    return v > fn.threshold ? v - 1 : v + 3;
  };
  /** `m<i>#<index>` of every function a test of the first `tested` modules reaches. */
  const reachedFrom = (tested) => {
    const out = new Set();
    const visit = (fn) => {
      const key = `${fn.module}#${fn.index}`;
      if (out.has(key)) return;
      out.add(key);
      if (fn.calls) visit(at(fn.calls.module, fn.calls.index));
    };
    for (const fn of fns) if (fn.module < tested) visit(fn);
    return out;
  };
  return { fns, at, value, modules, perModule, reachedFrom };
}

const write = (root, file, text) => {
  mkdirSync(dirname(join(root, file)), { recursive: true });
  writeFileSync(join(root, file), text);
};

/** Python: a src-layout package; tests import through star imports, re-exports, module aliases. */
export function generatePython(root, { modules, perModule, testedModules, seed }) {
  const p = plan({ modules, perModule, seed });
  const name = (fn) => `f_${fn.module}_${fn.index}`;
  write(root, 'pyproject.toml', '[tool.pytest.ini_options]\npythonpath = ["src"]\ntestpaths = ["tests"]\n');
  write(
    root,
    'src/gen/_util.py',
    'import functools\n\n\ndef traced(fn):\n    @functools.wraps(fn)\n    def wrapper(*args):\n        return fn(*args)\n\n    return wrapper\n',
  );
  const init = ['from ._util import traced'];
  for (let i = 0; i < modules; i++) {
    const lines = ['from ._util import traced'];
    const imports = new Set();
    const body = [];
    const publics = [];
    for (let j = 0; j < perModule; j++) {
      const fn = p.at(i, j);
      const aliased = (i + j) % 4 === 1;
      const decorated = (i + j) % 5 === 2;
      const own = aliased ? `_${name(fn)}_impl` : name(fn);
      let v = `x + ${fn.add}`;
      if (fn.calls) {
        const callee = p.at(fn.calls.module, fn.calls.index);
        // half the calls go through the module object, half through a name imported from it
        if ((i + j) % 2 === 0) {
          imports.add(`from . import m${callee.module}`);
          v = `m${callee.module}.${name(callee)}(x) + ${fn.add}`;
        } else {
          imports.add(`from .m${callee.module} import ${name(callee)}`);
          v = `${name(callee)}(x) + ${fn.add}`;
        }
      }
      body.push(
        `${decorated ? '@traced\n' : ''}def ${own}(x):\n    v = ${v}\n    if v > ${fn.threshold}:\n        return v - 1\n    return v + 3\n`,
      );
      if (aliased) body.push(`${name(fn)} = ${own}\n`);
      publics.push(name(fn));
    }
    lines.push(...imports);
    if (i % 2 === 0) lines.push(`__all__ = [${publics.map((n) => `"${n}"`).join(', ')}]`);
    write(root, `src/gen/m${i}.py`, `${lines.join('\n')}\n\n\n${body.join('\n\n')}`);
    init.push(`from .m${i} import *`);
  }
  write(root, 'src/gen/__init__.py', `${init.join('\n')}\n`);
  for (let i = 0; i < testedModules; i++) {
    const style = i % 3;
    const head =
      style === 0
        ? 'from gen import *'
        : style === 1
          ? `import gen.m${i} as mod`
          : `from gen.m${i} import ${Array.from({ length: perModule }, (_, j) => name(p.at(i, j))).join(', ')}`;
    const tests = Array.from({ length: perModule }, (_, j) => {
      const fn = p.at(i, j);
      const call = style === 1 ? `mod.${name(fn)}` : name(fn);
      return `def test_${name(fn)}():\n    assert ${call}(2) == ${p.value(fn, 2)}\n    assert ${call}(40) == ${p.value(fn, 40)}\n`;
    });
    write(root, `tests/test_m${i}.py`, `${head}\n\n\n${tests.join('\n\n')}`);
  }
  const reached = p.reachedFrom(testedModules);
  // the bench draws mutants only in functions a test reaches
  return (file, symbol) => {
    const m = /m(\d+)\.py$/.exec(file);
    const f = /^_?f_(\d+)_(\d+)/.exec(symbol);
    return Boolean(m && f && f[1] === m[1] && reached.has(`${f[1]}#${f[2]}`));
  };
}

/** Whether a function a mutant went into is one the tests reach, by the generated names. */
function testedBy(p, testedModules, fileName, fnName) {
  const reached = p.reachedFrom(testedModules);
  return (file, symbol) => {
    const m = fileName.exec(file);
    const f = fnName.exec(symbol);
    return Boolean(m && f && reached.has(`${f[1]}#${f[2]}`));
  };
}

/**
 * C++: a library behind an umbrella header included with angle brackets; some modules' functions
 * are declared in one header and defined in a source named unlike it, some are named through a
 * macro (GEN_FUNC(f_1_2) is gen_f_1_2); GoogleTest programs registered whole.
 */
export function generateCpp(root, { modules, perModule, testedModules, seed }) {
  const p = plan({ modules, perModule, seed });
  const macro = (fn) => (fn.module + fn.index) % 4 === 1;
  const name = (fn) => `f_${fn.module}_${fn.index}`;
  const called = (fn) => (macro(fn) ? `gen_${name(fn)}` : name(fn));
  const units = [];
  const umbrella = ['#pragma once', '#include <gen/macros.h>'];
  write(root, 'include/gen/macros.h', '#pragma once\n#define GEN_FUNC(name) gen_##name\n');
  for (let i = 0; i < modules; i++) {
    const decls = [];
    const defs = [];
    const includes = new Set(['#include <gen/all.h>']);
    for (let j = 0; j < perModule; j++) {
      const fn = p.at(i, j);
      const head = macro(fn) ? `int GEN_FUNC(${name(fn)})(int x)` : `int ${name(fn)}(int x)`;
      decls.push(`${head};`);
      const v = fn.calls
        ? `${called(p.at(fn.calls.module, fn.calls.index))}(x) + ${fn.add}`
        : `x + ${fn.add}`;
      defs.push(`${head} {\n  int v = ${v};\n  if (v > ${fn.threshold}) return v - 1;\n  return v + 3;\n}\n`);
    }
    write(root, `include/gen/m${i}.h`, `#pragma once\n#include <gen/macros.h>\n\n${decls.join('\n')}\n`);
    umbrella.push(`#include <gen/m${i}.h>`);
    // every third module's source is named unlike its header
    const unit = i % 3 === 2 ? `src/impl_${i}_detail.cpp` : `src/m${i}.cpp`;
    units.push(unit);
    write(root, unit, `${[...includes].join('\n')}\n\n${defs.join('\n')}`);
  }
  write(root, 'include/gen/all.h', `${umbrella.join('\n')}\n`);
  const testFiles = [];
  for (let t = 0; t < 3; t++) {
    const cases = [];
    for (let i = t; i < testedModules; i += 3)
      for (let j = 0; j < perModule; j++) {
        const fn = p.at(i, j);
        cases.push(
          `TEST(M${i}, F${j}) {\n  EXPECT_EQ(${called(fn)}(2), ${p.value(fn, 2)});\n  EXPECT_EQ(${called(fn)}(40), ${p.value(fn, 40)});\n}\n`,
        );
      }
    testFiles.push(`tests/gen_test_${t}.cpp`);
    write(
      root,
      `tests/gen_test_${t}.cpp`,
      `#include <gtest/gtest.h>\n#include <gen/all.h>\n\n${cases.join('\n')}`,
    );
  }
  write(
    root,
    'CMakeLists.txt',
    [
      'cmake_minimum_required(VERSION 3.16)',
      'project(gen CXX)',
      'set(CMAKE_CXX_STANDARD 17)',
      'enable_testing()',
      'find_package(GTest REQUIRED)',
      `add_library(gen ${units.join(' ')})`,
      'target_include_directories(gen PUBLIC ${CMAKE_CURRENT_SOURCE_DIR}/include)',
      ...testFiles.flatMap((f, t) => [
        `add_executable(gen_test_${t} ${f})`,
        `target_link_libraries(gen_test_${t} gen GTest::gtest_main)`,
        `add_test(NAME gen_test_${t} COMMAND gen_test_${t})`,
      ]),
      '',
    ].join('\n'),
  );
  return testedBy(p, testedModules, /src\/(?:m(\d+)|impl_(\d+)_detail)\.cpp$/, /^f_(\d+)_(\d+)$/);
}

/**
 * TypeScript under ts-jest: modules re-exported by an index (`export *`, renamed re-exports),
 * CommonJS modules (`module.exports = {...}`, `exports.x =`), tests importing through Jest's
 * moduleNameMapper (`@gen/...`), the index, or require.
 */
export function generateJs(root, { modules, perModule, testedModules, seed }) {
  const p = plan({ modules, perModule, seed });
  const name = (fn) => `f_${fn.module}_${fn.index}`;
  const commonJs = (i) => i % 3 === 1;
  const file = (i) => (commonJs(i) ? `src/m${i}.js` : `src/m${i}.ts`);
  write(root, 'package.json', '{ "name": "gen", "private": true, "type": "commonjs" }\n');
  write(
    root,
    'jest.config.js',
    "module.exports = {\n  testEnvironment: 'node',\n  transform: {\n    '^.+\\\\.ts$': ['ts-jest', { diagnostics: false, isolatedModules: true }],\n    '^.+\\\\.js$': 'babel-jest',\n  },\n  moduleNameMapper: { '^@gen/(.*)$': '<rootDir>/src/$1' },\n};\n",
  );
  write(
    root,
    'tsconfig.json',
    '{ "compilerOptions": { "target": "ES2022", "module": "commonjs", "esModuleInterop": true } }\n',
  );
  const index = [];
  for (let i = 0; i < modules; i++) {
    const lines = [];
    const body = [];
    for (let j = 0; j < perModule; j++) {
      const fn = p.at(i, j);
      let v = `x + ${fn.add}`;
      if (fn.calls) {
        const callee = p.at(fn.calls.module, fn.calls.index);
        const req = commonJs(callee.module) ? `./m${callee.module}` : `./m${callee.module}`;
        if (commonJs(i)) {
          lines.push(`const m${callee.module} = require('${req}');`);
          v = `m${callee.module}.${name(callee)}(x) + ${fn.add}`;
        } else {
          lines.push(`import { ${name(callee)} } from '${req}';`);
          v = `${name(callee)}(x) + ${fn.add}`;
        }
      }
      const fnBody = `{\n  const v = ${v};\n  if (v > ${fn.threshold}) return v - 1;\n  return v + 3;\n}`;
      if (commonJs(i))
        body.push(
          j % 2 === 0
            ? `function ${name(fn)}(x) ${fnBody}\n`
            : `exports.${name(fn)} = function (x) ${fnBody};\n`,
        );
      else body.push(`export function ${name(fn)}(x: number): number ${fnBody}\n`);
    }
    if (commonJs(i))
      body.push(
        Array.from({ length: perModule }, (_, j) => j)
          .filter((j) => j % 2 === 0)
          .map((j) => `exports.${name(p.at(i, j))} = ${name(p.at(i, j))};`)
          .join('\n'),
      );
    write(root, file(i), `${[...new Set(lines)].join('\n')}\n\n${body.join('\n')}\n`);
    if (!commonJs(i)) index.push(`export * from './m${i}';`);
  }
  write(root, 'src/index.ts', `${index.join('\n')}\n`);
  for (let i = 0; i < testedModules; i++) {
    const names = Array.from({ length: perModule }, (_, j) => name(p.at(i, j)));
    const head = commonJs(i)
      ? `const mod = require('../src/m${i}');`
      : i % 2 === 0
        ? `import { ${names.join(', ')} } from '../src';`
        : `import { ${names.join(', ')} } from '@gen/m${i}';`;
    const tests = names.map((n, j) => {
      const fn = p.at(i, j);
      const call = commonJs(i) ? `mod.${n}` : n;
      return `test('${n}', () => {\n  expect(${call}(2)).toBe(${p.value(fn, 2)});\n  expect(${call}(40)).toBe(${p.value(fn, 40)});\n});\n`;
    });
    write(root, `tests/m${i}.test.ts`, `${head}\n\n${tests.join('\n')}`);
  }
  return testedBy(p, testedModules, /src\/m(\d+)\.[jt]s$/, /^f_(\d+)_(\d+)$/);
}
