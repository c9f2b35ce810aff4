import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { detectCargo, workspaceMembers } from './detect.js';

const dirs: string[] = [];
afterAll(async () => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

async function tree(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'suture-cargo-detect-'));
  dirs.push(dir);
  for (const [file, text] of Object.entries(files)) {
    await mkdir(join(dir, file, '..'), { recursive: true });
    await writeFile(join(dir, file), text);
  }
  return dir;
}

describe('detectCargo', () => {
  it('finds a crate by its [package], named after it', async () => {
    const dir = await tree({ 'Cargo.toml': '[package]\nname = "calc"\nversion = "0.1.0"\n' });
    expect(await detectCargo(dir)).toEqual({ name: 'calc', reason: 'Cargo.toml [package]' });
  });

  it('finds a workspace by its members and runs it with --workspace; its members are left to it', async () => {
    const dir = await tree({
      'Cargo.toml': '[workspace]\nmembers = [\n  "crates/core",\n  "crates/cli",\n]\nresolver = "2"\n',
      'crates/core/Cargo.toml': '[package]\nname = "core"\n',
    });
    expect(await detectCargo(dir)).toMatchObject({
      reason: 'Cargo.toml workspace (crates/core, crates/cli)',
      options: { args: ['--workspace'] },
    });
    expect(await detectCargo(join(dir, 'crates/core'))).toBeNull();
  });

  it('finds nothing without a Cargo.toml, or in one that is neither a package nor a workspace', async () => {
    expect(await detectCargo(await tree({ 'README.md': '' }))).toBeNull();
    expect(await detectCargo(await tree({ 'Cargo.toml': '[dependencies]\n' }))).toBeNull();
  });

  it('reads members written with single quotes and a [workspace] after [package]', () => {
    expect(workspaceMembers("[package]\nname = 'x'\n\n[workspace]\nmembers = ['a', \"b/*\"]\n")).toEqual([
      'a',
      'b/*',
    ]);
    expect(workspaceMembers('[package]\nname = "x"\n')).toBeUndefined();
  });
});
