import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseCompilerOutput } from '@suture/runner-ctest';
import { afterAll, describe, expect, it } from 'vitest';
import { apply, cleanup, copy, propose, request } from './support.js';

afterAll(cleanup);

// Real g++ 12.2 output for each source of fixtures/cpp-rules, captured by its capture.sh with the
// flags the CTest runner builds with, and parsed by the runner's own parser: what the fixer gets.
async function buildFailure(
  root: string,
  name: string,
  files = [`${name}.cpp`],
  compiler = 'gcc',
): Promise<ReturnType<typeof request>> {
  const diagnostics = parseCompilerOutput(
    await readFile(join(root, `${compiler}-${name}.txt`), 'utf8'),
    root,
  );
  expect(diagnostics.length).toBeGreaterThan(0);
  const first = diagnostics[0]!;
  return request(
    root,
    'cpp',
    {
      kind: 'build',
      title: first.message,
      blocksAll: true,
      location: { file: first.file, line: first.line },
      diagnostics,
    },
    files,
  );
}

/** Compiles and runs a fixed program: its exit code (0 when the fixture's check holds). */
function compileAndRun(root: string, file: string): number {
  execFileSync('g++', ['-std=c++17', file, '-o', 'prog'], { cwd: root, stdio: 'pipe' });
  try {
    execFileSync('./prog', { cwd: root, stdio: 'pipe' });
    return 0;
  } catch (error) {
    return (error as { status: number }).status;
  }
}

describe("a missing ';' that GCC gives no fix-it for", () => {
  it("ends a declaration running into 'return' at the end of its last token", async () => {
    const root = await copy('cpp-rules');
    const req = await buildFailure(root, 'semi-decl');
    const proposal = await propose(req);
    expect(proposal).toMatchObject({
      verdict: 'edits',
      rationale: expect.stringMatching(/inserted ';' after '1' \(semi-decl\.cpp:2\)/),
    });
    await apply(root, req, proposal);
    expect(await readFile(join(root, 'semi-decl.cpp'), 'utf8')).toBe(
      'int main() {\n  int x = 1;\n  return x == 1 ? 0 : 1;\n}\n',
    );
    expect(compileAndRun(root, 'semi-decl.cpp')).toBe(0);
  });

  it("reads GCC's display columns through tabs, and skips comments back to the token", async () => {
    const root = await copy('cpp-rules');
    const req = await buildFailure(root, 'semi-tabs');
    expect(req.failure.diagnostics[0]).toMatchObject({ line: 5, column: 19 });
    await apply(root, req, await propose(req));
    expect(await readFile(join(root, 'semi-tabs.cpp'), 'utf8')).toContain(
      '\tint x = 1;  // one\n\t/* two */ return x - 1;\n',
    );
    expect(compileAndRun(root, 'semi-tabs.cpp')).toBe(0);
  });

  it("fixes every such error of a file in one proposal, after '}' and before a '}' token", async () => {
    const root = await copy('cpp-rules');
    const req = await buildFailure(root, 'semi-brace');
    await apply(root, req, await propose(req));
    const text = await readFile(join(root, 'semi-brace.cpp'), 'utf8');
    expect(text).toContain('  int a[] = {1, 2};\n');
    expect(text).toContain('  int y = first();\n}');
    execFileSync('g++', ['-c', 'semi-brace.cpp', '-o', '/dev/null'], { cwd: root, stdio: 'pipe' });
  });

  it("leaves it alone before a name, where ',' would declare that name too", async () => {
    const root = await copy('cpp-rules');
    const proposal = await propose(await buildFailure(root, 'semi-ident'));
    expect(proposal).toMatchObject({
      verdict: 'unfixable',
      diagnosis: expect.stringMatching(
        /more than one fix is possible: semi-ident\.cpp:5: expected ',' or ';' before 'y': a ';' ends the declaration, a ',' would declare 'y\.\.\.' as well/,
      ),
    });
  });
});

describe('a standard name used without its header, with no note from GCC', () => {
  it('adds the one header the standard declares std::sqrt in, in order among the sorted includes', async () => {
    const root = await copy('cpp-rules');
    const req = await buildFailure(root, 'cmath');
    const proposal = await propose(req);
    expect(proposal).toMatchObject({
      verdict: 'edits',
      rationale: expect.stringMatching(/added #include <cmath> to cmath\.cpp for std::sqrt/),
    });
    await apply(root, req, proposal);
    expect((await readFile(join(root, 'cmath.cpp'), 'utf8')).split('\n').slice(0, 4)).toEqual([
      '#include <cmath>',
      '#include <cstdio>',
      '#include <vector>',
      '',
    ]);
    expect(compileAndRun(root, 'cmath.cpp')).toBe(0);
  });

  it('adds it inside an include guard after the project includes, in the header and in the source that both use it', async () => {
    const root = await copy('cpp-rules');
    const req = await buildFailure(root, 'types', ['types.h', 'types.cpp']);
    await apply(root, req, await propose(req));
    expect(await readFile(join(root, 'types.h'), 'utf8')).toBe(
      '#ifndef TYPES_H\n#define TYPES_H\n\n#include "config.h"\n#include <cstdint>\n\nstd::int32_t twice(std::int32_t x);\n\n#endif\n',
    );
    expect(
      (await readFile(join(root, 'types.cpp'), 'utf8')).startsWith(
        '#include "types.h"\n#include <cstdint>\n',
      ),
    ).toBe(true);
    expect(compileAndRun(root, 'types.cpp')).toBe(0);
  });

  it("adds the header of a namespace: 'std::chrono' has not been declared", async () => {
    const root = await copy('cpp-rules');
    const req = await buildFailure(root, 'chrono');
    await apply(root, req, await propose(req));
    expect(
      (await readFile(join(root, 'chrono.cpp'), 'utf8')).startsWith('#include <chrono>\nint main() {'),
    ).toBe(true);
    expect(compileAndRun(root, 'chrono.cpp')).toBe(0);
  });

  it('never picks a header for a name several headers declare (std::size_t), and says which', async () => {
    const root = await copy('cpp-rules');
    const proposal = await propose(await buildFailure(root, 'size'));
    expect(proposal).toMatchObject({
      verdict: 'unfixable',
      diagnosis: expect.stringContaining(
        'std::size_t is declared in <cstddef>, <cstdio>, <cstdlib>, <cstring>, <ctime>',
      ),
    });
  });

  it('still adds the unambiguous header of a file that also has an ambiguous name, and says what it left', async () => {
    const root = await copy('cpp-rules');
    const req = await buildFailure(root, 'mixed');
    const proposal = await propose(req);
    expect(proposal).toMatchObject({
      verdict: 'edits',
      rationale: expect.stringMatching(
        /added #include <numeric> to mixed\.cpp for std::accumulate; left alone, more than one fix is possible: std::size_t is declared in <cstddef>/,
      ),
    });
    await apply(root, req, proposal);
    expect((await readFile(join(root, 'mixed.cpp'), 'utf8')).startsWith('#include <numeric>\n')).toBe(true);
  });

  it("reads Clang's wording too: no member named 'sqrt' in namespace 'std'", async () => {
    const root = await copy('cpp-rules');
    const req = await buildFailure(root, 'cmath', ['cmath.cpp'], 'clang');
    await apply(root, req, await propose(req));
    expect(compileAndRun(root, 'cmath.cpp')).toBe(0);
  });

  it("sets aside Clang's suggestion of a reserved name (__int32_t for std::int32_t) and adds the header instead", async () => {
    const root = await copy('cpp-rules');
    const req = await buildFailure(root, 'reserved', ['reserved.cpp'], 'clang');
    expect(req.failure.diagnostics[0]!.fixIts.map((f) => f.replacement)).toEqual(['__int32_t']);
    const proposal = await propose(req);
    expect(proposal).toMatchObject({
      verdict: 'edits',
      rationale: expect.stringMatching(
        /added #include <cstdint> to reserved\.cpp for std::int32_t; did not take the compiler's suggestion of '__int32_t' \(a name reserved for the implementation\)/,
      ),
    });
    await apply(root, req, proposal);
    const text = await readFile(join(root, 'reserved.cpp'), 'utf8');
    expect(text).not.toContain('__int32_t');
    expect(text.startsWith('#include <cstdint>\n#include <cstdio>\n')).toBe(true);
    expect(compileAndRun(root, 'reserved.cpp')).toBe(0);
  });
});
