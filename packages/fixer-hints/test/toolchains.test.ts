import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseCompilerOutput } from '@suture/runner-ctest';
import { afterAll, describe, expect, it } from 'vitest';
import { apply, cleanup, copy, propose, request } from './support.js';

afterAll(cleanup);

describe('C/C++ fix-its', () => {
  it("applies GCC's fix-its (missing include, misspelled identifier, missing ;) and the file compiles", async () => {
    const root = await copy('cpp');
    const output = await readFile(join(root, 'gcc-output.txt'), 'utf8');
    // the three fix-its of the captured output, as the C/C++ runner reads them
    const fixIts = parseCompilerOutput(output, root).flatMap((d) => d.fixIts);
    expect(fixIts).toHaveLength(3);
    const req = request(
      root,
      'cpp',
      {
        kind: 'build',
        title: "'vector' is not a member of 'std'",
        blocksAll: true,
        location: { file: 'fix.cpp', line: 4 },
        diagnostics: [
          {
            source: 'gcc',
            severity: 'error',
            message: "'vector' is not a member of 'std'",
            file: 'fix.cpp',
            line: 4,
            fixIts,
          },
        ],
      },
      ['fix.cpp'],
    );
    const proposal = await propose(req);
    await apply(root, req, proposal);
    const fixed = await readFile(join(root, 'fix.cpp'), 'utf8');
    expect(fixed).toContain('#include <vector>\n');
    expect(fixed).toContain('counter += v');
    expect(fixed).toContain('return 0; }');
    execFileSync('g++', ['-c', 'fix.cpp', '-o', '/dev/null'], { cwd: root });
  });
});

describe('JavaScript hints through the TypeScript language service', () => {
  it('fixes a misspelled identifier and adds the missing require of a Node built-in', async () => {
    const root = await copy('js');
    const run = (): string => {
      try {
        return execFileSync('node', ['main.js'], { cwd: root, encoding: 'utf8', stdio: 'pipe' });
      } catch (error) {
        return String((error as { stderr?: string }).stderr);
      }
    };
    const first = run();
    expect(first).toMatch(/ReferenceError: totl is not defined/);
    const req = request(
      root,
      'javascript',
      {
        kind: 'exception',
        title: 'ReferenceError: totl is not defined',
        evidence: first,
        location: { file: 'cart.js', line: 8, symbol: 'checkout' },
      },
      ['cart.js'],
    );
    await apply(root, req, await propose(req));
    const second = run();
    expect(second).toMatch(/ReferenceError: path is not defined/);
    const req2 = request(
      root,
      'javascript',
      {
        kind: 'exception',
        title: 'ReferenceError: path is not defined',
        evidence: second,
        location: { file: 'cart.js', line: 9, symbol: 'checkout' },
      },
      ['cart.js'],
    );
    const proposal = await propose(req2);
    expect(proposal).toMatchObject({
      verdict: 'edits',
      rationale: expect.stringMatching(/TypeScript code fix/),
    });
    await apply(root, req2, proposal);
    expect(run().trim()).toBe('{"amount":5,"label":"5"}');
  });

  it("fixes a name too short for TypeScript's spelling fix with the closest visible name, and leaves a tie", async () => {
    const root = await copy('js');
    const node = (code: string): string =>
      execFileSync('node', ['-e', code], { cwd: root, encoding: 'utf8', stdio: 'pipe' }).trim();
    const failure = (name: string, line: number, symbol: string) =>
      request(
        root,
        'javascript',
        {
          kind: 'exception',
          title: `ReferenceError: ${name} is not defined`,
          location: { file: 'timer.js', line, symbol },
        },
        ['timer.js'],
      );
    const short = failure('mss', 2, 'delay');
    const proposal = await propose(short);
    expect(proposal).toMatchObject({
      verdict: 'edits',
      rationale: '"mss" is not defined; the closest name visible there is "ms"',
    });
    await apply(root, short, proposal);
    expect(node("process.stdout.write(String(require('./timer').delay(3)))")).toBe('6');
    expect(await propose(failure('ad', 6, 'pick'))).toMatchObject({
      verdict: 'unfixable',
      diagnosis: expect.stringMatching(/several names are equally close \(ab, ac\)/),
    });
  });

  it('answers unfixable for a logic failure, pointing at an LLM fixer', async () => {
    const root = await copy('js');
    const req = request(
      root,
      'javascript',
      { kind: 'assertion', title: 'expect(received).toBe(expected)', location: { file: 'cart.js', line: 3 } },
      ['cart.js'],
    );
    const proposal = await propose(req);
    expect(proposal).toMatchObject({
      verdict: 'unfixable',
      diagnosis: expect.stringMatching(/needs an LLM fixer/),
    });
  });
});
