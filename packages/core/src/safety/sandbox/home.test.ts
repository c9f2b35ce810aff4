import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { homeCover, homePath, pathFoldersIn, toolchainHomeEnv } from './home.js';

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

async function tree(files: string[]): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'suture-home-cover-'));
  dirs.push(root);
  for (const f of files) {
    await mkdir(join(root, f, '..'), { recursive: true });
    if (!f.endsWith('/')) await writeFile(join(root, f), 'x');
    else await mkdir(join(root, f), { recursive: true });
  }
  return root;
}

describe('what covers the real home', () => {
  it('covers every entry but the kept paths and the folders on the way to them', async () => {
    const base = await tree([
      'h/.aws/credentials',
      'h/.npmrc',
      'h/.cargo/bin/cargo',
      'h/.cargo/credentials.toml',
      'h/code/repo/app.py',
      'h/code/other/notes',
      'h/.pyenv/version',
    ]);
    const home = join(base, 'h');
    const cover = await homeCover(home, [
      join(home, '.cargo/bin'),
      join(home, '.pyenv'),
      join(home, 'code/repo'),
    ]);
    expect(cover.dirs).toEqual([join(home, '.aws'), join(home, 'code/other')]);
    expect(cover.files).toEqual([join(home, '.cargo/credentials.toml'), join(home, '.npmrc')]);
  });

  it('judges a link by where it leads: to a kept path it stays, elsewhere it is covered', async () => {
    const base = await tree(['h/.npmrc', 'secrets/aws/credentials', 'work/repo/app.py']);
    const home = join(base, 'h');
    await symlink(join(base, 'secrets', 'aws'), join(home, '.aws'));
    await symlink(join(base, 'work'), join(home, 'projects'));
    const cover = await homeCover(home, [join(base, 'work', 'repo')]);
    expect(cover.dirs).toEqual([join(home, '.aws')]);
    expect(cover.files).toEqual([join(home, '.npmrc')]);
  });

  it('covers nothing when the home itself is kept (a project that is the home)', async () => {
    const base = await tree(['h/.npmrc']);
    expect(await homeCover(join(base, 'h'), [join(base, 'h')])).toEqual({ dirs: [], files: [] });
  });

  it('reads sandboxHome entries, PATH folders and toolchain folders relative to the home', async () => {
    const base = await tree(['h/go/pkg/', 'h/.rustup/']);
    const home = join(base, 'h');
    expect(homePath('~/.cache/pip', home)).toBe(join(home, '.cache/pip'));
    expect(homePath('.cache/pip', home)).toBe(join(home, '.cache/pip'));
    expect(homePath('/etc/passwd', home)).toBeUndefined();
    expect(pathFoldersIn(home, `/usr/bin:${home}/.cargo/bin:${home}`)).toEqual([join(home, '.cargo/bin')]);
    // set where it exists and the environment leaves it unset
    expect(await toolchainHomeEnv(home, { RUSTUP_HOME: '/opt/rustup' })).toEqual({
      GOPATH: join(home, 'go'),
    });
  });
});
