import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { propose, request } from './support.js';

const dirs: string[] = [];
afterAll(async () => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

async function crate(source: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'suture-hints-rust-'));
  dirs.push(dir);
  await writeFile(join(dir, 'lib.rs'), source);
  return dir;
}

const diagnostic = (fixIts: Array<Record<string, unknown>>) => ({
  source: 'rustc',
  severity: 'error',
  message: 'cannot find value `countr` in this scope',
  file: 'lib.rs',
  line: 1,
  column: 5,
  code: 'E0425',
  fixIts: fixIts.map((f) => ({
    file: 'lib.rs',
    line: 1,
    column: 5,
    endLine: 1,
    endColumn: 11,
    replacement: 'counter',
    ...f,
  })),
});

describe('the Rust rules of the hints fixer', () => {
  it('refuses a rustc fix-it that is not marked MachineApplicable, however a runner passed it: the failure goes on with the diagnosis', async () => {
    const root = await crate('    countr\n');
    const proposal = await propose(
      request(
        root,
        'rust',
        {
          kind: 'build',
          title: 'build',
          diagnostics: [diagnostic([{ description: 'a local variable with a similar name exists' }])],
        },
        ['lib.rs'],
      ),
    );
    expect(proposal).toMatchObject({
      verdict: 'unfixable',
      diagnosis: expect.stringMatching(/no machine-applicable fix for lib\.rs:1/),
    });
  });

  it('refuses to apply part of a fix: one error without a MachineApplicable suggestion sends the whole failure on', async () => {
    const root = await crate('    countr\n');
    const marked = diagnostic([{ description: 'remove this (rustc: MachineApplicable)' }]);
    const bare = { ...diagnostic([]), line: 2, message: 'mismatched types', code: 'E0308' };
    const proposal = await propose(
      request(root, 'rust', { kind: 'build', title: 'build', diagnostics: [marked, bare] }, ['lib.rs']),
    );
    expect(proposal).toMatchObject({
      verdict: 'unfixable',
      diagnosis: expect.stringMatching(/lib\.rs:2: mismatched types/),
    });
  });

  it('applies a MachineApplicable fix-it', async () => {
    const root = await crate('    countr\n');
    const proposal = await propose(
      request(
        root,
        'rust',
        {
          kind: 'build',
          title: 'build',
          diagnostics: [diagnostic([{ description: 'use it (rustc: MachineApplicable)' }])],
        },
        ['lib.rs'],
      ),
    );
    expect(proposal).toMatchObject({ verdict: 'edits' });
    expect(JSON.stringify(proposal)).toContain('counter');
  });
});
