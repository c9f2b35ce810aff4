import { execFileSync } from 'node:child_process';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FailureSchema, validateEdits, type FixIt, type FixRequest } from '@suture/core';
import { silentLogger } from '@suture/core/testing';
import { afterAll, describe, expect, it } from 'vitest';
import hints from '../src/index.js';

const temps: string[] = [];
afterAll(async () => Promise.all(temps.map((d) => rm(d, { recursive: true, force: true }))));

async function copy(name: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), `suture-hints-${name}-`));
  temps.push(dir);
  await cp(fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url)), dir, { recursive: true });
  return dir;
}

function request(root: string, language: string, failure: Record<string, unknown>, files: string[]): FixRequest {
  const policy = { editable: 'both' as const, allowedPaths: ['**'], deniedPaths: [], allowTestWeakening: false, allowNewFiles: false, maxFilesPerAttempt: 5 };
  return {
    project: { name: 'p', root, language },
    failure: FailureSchema.parse({ id: 'x', fingerprint: 'x', repairable: true, tests: [], evidence: '', ...failure }),
    scope: { entries: files.map((file) => ({ file, symbols: [], role: 'source', reasons: ['test'], depth: 0 })), excluded: [] },
    sources: [],
    history: [],
    policy,
    attempt: 1,
    maxAttempts: 3,
    tokenBudget: 4000,
  };
}

async function apply(root: string, req: FixRequest, proposal: Awaited<ReturnType<ReturnType<typeof hints>['propose']>>): Promise<void> {
  if (proposal.verdict !== 'edits') throw new Error(`expected edits, got ${JSON.stringify(proposal)}`);
  const check = await validateEdits({ projectRoot: root, edits: proposal.edits, scope: req.scope, policy: req.policy });
  if (!check.ok) throw new Error(check.reason);
  for (const w of check.writes) await writeFile(join(root, w.file), w.after);
}

/** The three GCC fix-its of the captured output (`gcc-output.txt`), in the Diagnostic shape the C/C++ runner produces. */
function fixItsFrom(output: string): FixIt[] {
  return [...output.matchAll(/^fix-it:"([^"]+)":\{(\d+):(\d+)-(\d+):(\d+)\}:"((?:\\.|[^"\\])*)"$/gm)].map((m) => ({
    file: m[1]!,
    line: Number(m[2]),
    column: Number(m[3]),
    endLine: Number(m[4]),
    endColumn: Number(m[5]),
    replacement: m[6]!.replace(/\\n/g, '\n').replace(/\\"/g, '"').replace(/\\\\/g, '\\'),
  }));
}

describe('C/C++ fix-its', () => {
  it("applies GCC's fix-its (missing include, misspelled identifier, missing ;) and the file compiles", async () => {
    const root = await copy('cpp');
    const output = await readFile(join(root, 'gcc-output.txt'), 'utf8');
    const fixIts = fixItsFrom(output);
    expect(fixIts).toHaveLength(3);
    const req = request(root, 'cpp', { kind: 'build', title: "'vector' is not a member of 'std'", blocksAll: true, location: { file: 'fix.cpp', line: 4 }, diagnostics: [{ source: 'gcc', severity: 'error', message: "'vector' is not a member of 'std'", file: 'fix.cpp', line: 4, fixIts }] }, ['fix.cpp']);
    const proposal = await hints().propose(req, { signal: new AbortController().signal, logger: silentLogger, root });
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
    const req = request(root, 'javascript', { kind: 'exception', title: 'ReferenceError: totl is not defined', evidence: first, location: { file: 'cart.js', line: 8, symbol: 'checkout' } }, ['cart.js']);
    await apply(root, req, await hints().propose(req, { signal: new AbortController().signal, logger: silentLogger, root }));
    const second = run();
    expect(second).toMatch(/ReferenceError: path is not defined/);
    const req2 = request(root, 'javascript', { kind: 'exception', title: 'ReferenceError: path is not defined', evidence: second, location: { file: 'cart.js', line: 9, symbol: 'checkout' } }, ['cart.js']);
    const proposal = await hints().propose(req2, { signal: new AbortController().signal, logger: silentLogger, root });
    expect(proposal).toMatchObject({ verdict: 'edits', rationale: expect.stringMatching(/TypeScript code fix/) });
    await apply(root, req2, proposal);
    expect(run().trim()).toBe('{"amount":5,"label":"5"}');
  });

  it('answers unfixable for a logic failure, pointing at an LLM fixer', async () => {
    const root = await copy('js');
    const req = request(root, 'javascript', { kind: 'assertion', title: 'expect(received).toBe(expected)', location: { file: 'cart.js', line: 3 } }, ['cart.js']);
    const proposal = await hints().propose(req, { signal: new AbortController().signal, logger: silentLogger, root });
    expect(proposal).toMatchObject({ verdict: 'unfixable', diagnosis: expect.stringMatching(/needs an LLM fixer/) });
  });
});
