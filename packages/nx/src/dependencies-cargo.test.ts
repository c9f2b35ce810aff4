import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createDependencies } from './dependencies.js';
import { cargoPathDependencies } from './dependencies-cargo.js';

const dirs: string[] = [];
afterAll(async () => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

/** The edges the plugin gives a workspace of these files, with a project at each of `projects`. */
async function edges(files: Record<string, string>, projects: Record<string, string>): Promise<string[]> {
  const root = await mkdtemp(join(tmpdir(), 'suture-nx-cargo-'));
  dirs.push(root);
  for (const [file, text] of Object.entries(files)) {
    await mkdir(join(root, file, '..'), { recursive: true });
    await writeFile(join(root, file), text);
  }
  const projectFileMap: Record<string, Array<{ file: string; hash: string }>> = {};
  for (const file of Object.keys(files)) {
    const owner = Object.entries(projects)
      .filter(([, r]) => r === '.' || file.startsWith(`${r}/`))
      .sort((a, b) => b[1].length - a[1].length)[0]![0];
    (projectFileMap[owner] ??= []).push({ file, hash: '' });
  }
  const context = {
    workspaceRoot: root,
    projects: Object.fromEntries(Object.entries(projects).map(([n, r]) => [n, { root: r }])),
    fileMap: { projectFileMap, nonProjectFiles: [] },
  };
  const found = await createDependencies(undefined, context as never);
  return found.map((e) => `${e.source} -> ${e.target}`).sort();
}

describe('the Nx plugin on Rust projects', () => {
  it('adds an edge for each path dependency of a crate, in every dependency table', async () => {
    const found = await edges(
      {
        'app/Cargo.toml':
          '[package]\nname = "app"\n\n[dependencies]\ncore = { path = "../core", version = "0.1" }\nserde = "1"\n\n[dev-dependencies.fixtures]\npath = "../fixtures"\n\n[target.\'cfg(unix)\'.build-dependencies]\nsys = { path = "../sys" }\n',
        'core/Cargo.toml': '[package]\nname = "core"\n',
        'fixtures/Cargo.toml': '[package]\nname = "fixtures"\n',
        'sys/Cargo.toml': '[package]\nname = "sys"\n',
        'other/Cargo.toml': '[package]\nname = "other"\n',
      },
      { app: 'app', core: 'core', fixtures: 'fixtures', sys: 'sys', other: 'other' },
    );
    expect(found).toEqual(['app -> core', 'app -> fixtures', 'app -> sys']);
  });

  it('adds an edge from a workspace to its members, globs of one level included, and to its path dependencies', async () => {
    const found = await edges(
      {
        'Cargo.toml':
          '[workspace]\nmembers = ["crates/*", "tools/gen"]\n\n[workspace.dependencies]\nshared = { path = "shared" }\n',
        'crates/a/Cargo.toml': '[package]\nname = "a"\n',
        'crates/b/Cargo.toml': '[package]\nname = "b"\n',
        'tools/gen/Cargo.toml': '[package]\nname = "gen"\n',
        'shared/Cargo.toml': '[package]\nname = "shared"\n',
        'elsewhere/x/Cargo.toml': '[package]\nname = "x"\n',
      },
      { ws: '.', a: 'crates/a', b: 'crates/b', gen: 'tools/gen', shared: 'shared', x: 'elsewhere/x' },
    );
    expect(found).toEqual(['ws -> a', 'ws -> b', 'ws -> gen', 'ws -> shared']);
  });

  it('reads no path from comments or from tables that are not dependencies', () => {
    expect(
      cargoPathDependencies(
        '[package]\nname = "x"\n# dep = { path = "../no" }\n[lib]\npath = "src/lib.rs"\n[dependencies]\n# y = { path = "../no" }\n',
      ),
    ).toEqual([]);
  });
});
