import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createDependencies } from './dependencies.js';
import { goLocalReplaces, goModulePath, goRequires, goWorkUses } from './dependencies-go.js';

const dirs: string[] = [];
afterAll(async () => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

/** The edges the plugin gives a workspace of these files, with a project at each of `projects`. */
async function edges(files: Record<string, string>, projects: Record<string, string>): Promise<string[]> {
  const root = await mkdtemp(join(tmpdir(), 'suture-nx-go-'));
  dirs.push(root);
  for (const [file, text] of Object.entries(files)) {
    await mkdir(join(root, file, '..'), { recursive: true });
    await writeFile(join(root, file), text);
  }
  const projectFileMap: Record<string, Array<{ file: string; hash: string }>> = {};
  const nonProjectFiles: Array<{ file: string; hash: string }> = [];
  for (const file of Object.keys(files)) {
    const owner = Object.entries(projects)
      .filter(([, r]) => r === '.' || file.startsWith(`${r}/`))
      .sort((a, b) => b[1].length - a[1].length)[0]?.[0];
    if (owner) (projectFileMap[owner] ??= []).push({ file, hash: '' });
    else nonProjectFiles.push({ file, hash: '' });
  }
  const context = {
    workspaceRoot: root,
    projects: Object.fromEntries(Object.entries(projects).map(([n, r]) => [n, { root: r }])),
    fileMap: { projectFileMap, nonProjectFiles },
  };
  const found = await createDependencies(undefined, context as never);
  return found.map((e) => `${e.source} -> ${e.target}`).sort();
}

const API_MOD = `module example.com/api

go 1.22

require (
\texample.com/store v0.0.0 // the repository's own
\tgithub.com/google/uuid v1.6.0
)

replace example.com/store => ../store
`;

describe('the Nx plugin on Go modules', () => {
  it('adds an edge for a required module replaced by a folder of the repository, and none for the proxy', async () => {
    const found = await edges(
      {
        'api/go.mod': API_MOD,
        'store/go.mod': 'module example.com/store\n\ngo 1.22\n',
        'uuid/go.mod': 'module github.com/google/uuid\n',
      },
      { api: 'api', store: 'store', uuid: 'uuid' },
    );
    expect(found).toEqual(['api -> store']);
  });

  it('links the modules of a go.work that require each other, and the go.work project to its modules', async () => {
    const files = {
      'go.work': 'go 1.22\n\nuse (\n\t./svc\n\t./lib // shared\n)\n',
      'svc/go.mod': 'module example.com/svc\n\ngo 1.22\n\nrequire example.com/lib v0.1.0\n',
      'lib/go.mod': 'module example.com/lib\n\ngo 1.22\n',
      'other/go.mod': 'module example.com/other\n\nrequire example.com/lib v0.1.0\n',
    };
    expect(await edges(files, { svc: 'svc', lib: 'lib', other: 'other' })).toEqual(['svc -> lib']);
    expect(await edges(files, { ws: '.', svc: 'svc', lib: 'lib', other: 'other' })).toEqual([
      'svc -> lib',
      'ws -> lib',
      'ws -> svc',
    ]);
  });

  it('reads directives in blocks and on one line, and nothing from comments or version replacements', () => {
    const mod = `// module example.com/not
module "example.com/quoted"

require example.com/one v1.0.0
// require example.com/commented v1.0.0
replace (
\texample.com/one => ./one
\texample.com/two v1.0.0 => example.com/fork v1.2.0
\texample.com/three => ../three // local
)
`;
    expect(goModulePath(mod)).toBe('example.com/quoted');
    expect(goRequires(mod)).toEqual(['example.com/one']);
    expect([...goLocalReplaces(mod)]).toEqual([
      ['example.com/one', './one'],
      ['example.com/three', '../three'],
    ]);
    expect(goWorkUses('go 1.22\nuse ./a\nuse (\n\t"./b"\n)\n')).toEqual(['./a', './b']);
  });
});
