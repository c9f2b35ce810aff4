import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireToolchain } from './toolchain.js';

let bin: string;
const notes: string[] = [];
const test = { skip: (note: string): void => void notes.push(note) };
const clang = { command: 'suture-cc', install: 'apt-get install suture-cc' };

beforeAll(async () => {
  bin = await mkdtemp(join(tmpdir(), 'suture-toolchain-'));
  await writeFile(join(bin, 'suture-cc'), '#!/bin/sh\n');
  await writeFile(join(bin, 'not-executable'), '');
});

afterAll(async () => {
  await rm(bin, { recursive: true, force: true });
});

describe('requireToolchain', () => {
  it('skips with the install command when the command is not on PATH', () => {
    notes.length = 0;
    requireToolchain(test, clang, { PATH: '/nonexistent' });
    expect(notes).toEqual(['suture-cc is not installed (apt-get install suture-cc)']);
  });

  it('lets the test run when an executable of that name is on PATH, and only then', async () => {
    notes.length = 0;
    requireToolchain(test, { command: 'not-executable', install: 'x' }, { PATH: bin });
    expect(notes).toHaveLength(1);
    await chmod(join(bin, 'suture-cc'), 0o755);
    requireToolchain(test, clang, { PATH: `/nonexistent:${bin}` });
    expect(notes).toHaveLength(1);
  });

  it('fails instead of skipping where SUTURE_REQUIRE_TOOLCHAINS=1 (CI installs everything)', () => {
    notes.length = 0;
    expect(() =>
      requireToolchain(
        test,
        { command: 'suture-missing', install: 'apt-get install m' },
        {
          PATH: bin,
          SUTURE_REQUIRE_TOOLCHAINS: '1',
        },
      ),
    ).toThrow(
      'suture-missing is not installed (apt-get install m); SUTURE_REQUIRE_TOOLCHAINS=1 requires every toolchain a test uses',
    );
    expect(notes).toEqual([]);
  });
});
