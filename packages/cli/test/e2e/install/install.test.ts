import { execFile, execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, posix } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  installedCopies,
  installTarballs,
  npmWarnings,
  packAll,
  PYTHON_SET,
  REPO,
  SETS,
  tarballFile,
  userEnv,
} from './pack-install.mjs';

// What a user gets from npm: every package packed as it would be published, and the README's
// `npm install -D @suture/cli @suture/runner-pytest @suture/fixer-hints` run from those tarballs
// in a folder outside the workspace, then the README's commands on a small Python repository.
// One install (it compiles tree-sitter where its prebuilt binary does not load).

interface Packed {
  dir: string;
  name: string;
  tarball: string;
  files: string[];
}

let temp: string;
let app: string;
let packed: Packed[];
let install: { code: number; stdout: string; stderr: string };

interface Result {
  code: number;
  output: string;
}

function npx(args: string[], cwd = app): Promise<Result> {
  return new Promise((resolve) => {
    execFile(
      'npx',
      ['--no', 'suture', ...args],
      { cwd, env: userEnv({ CI: '1' }), timeout: 300_000 },
      (error, stdout, stderr) =>
        resolve({ code: error ? Number((error as { code?: unknown }).code) : 0, output: stdout + stderr }),
    );
  });
}

const git = (...args: string[]): string => execFileSync('git', args, { cwd: app, encoding: 'utf8' });

beforeAll(async () => {
  temp = await mkdtemp(join(tmpdir(), 'suture-install-'));
  const tarballs = join(temp, 'tarballs');
  await mkdir(tarballs);
  packed = await packAll(tarballs);
  app = join(temp, 'app');
  await cp(new URL('./project', import.meta.url), app, { recursive: true });
  await writeFile(join(app, 'package.json'), '{ "name": "shop", "private": true }\n');
  await writeFile(join(app, '.gitignore'), 'node_modules/\n__pycache__/\n');
  const set = PYTHON_SET.map((dir) => packed.find((p) => p.dir === dir)!.tarball);
  install = await installTarballs(app, set);
  git('init', '-q');
  git('add', '.');
  git('-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-qm', 'shop');
}, 900_000);

afterAll(async () => {
  await rm(temp, { recursive: true, force: true });
});

describe('the packed tarballs', () => {
  it('hold a README, the MIT LICENSE and what runs, and no tests, fixtures or source maps', () => {
    const license = readFileSync(join(REPO, 'LICENSE'), 'utf8');
    expect(license).toMatch(/^MIT License\n\nCopyright \(c\) 2026 The suture authors\n/);
    expect(packed.map((p) => p.dir)).toHaveLength(8);
    for (const p of packed) {
      expect(p.files, p.name).toEqual(expect.arrayContaining(['README.md', 'LICENSE', 'package.json']));
      expect(tarballFile(p.tarball, 'LICENSE'), p.name).toBe(license);
      const tests = p.files.filter(
        (f) =>
          /(^|\/)(test|tests|__tests__|__fixtures__|fixtures|test-support)\//.test(f) ||
          /\.(test|spec|test-support)\.[cm]?[jt]s$/.test(f),
      );
      expect(tests, p.name).toEqual([]);
      expect(
        p.files.filter((f) => f.startsWith('src/') || (f.endsWith('.ts') && !f.endsWith('.d.ts'))),
        p.name,
      ).toEqual([]);
      for (const map of p.files.filter((f) => f.endsWith('.map'))) {
        const { sources } = JSON.parse(tarballFile(p.tarball, map)) as { sources: string[] };
        for (const source of sources)
          expect(p.files, `${p.name}: ${map} points at ${source}`).toContain(
            posix.normalize(posix.join(dirname(map), source)),
          );
      }
    }
    const files = (dir: string): string[] => packed.find((p) => p.dir === dir)!.files;
    expect(files('core')).toEqual(
      expect.arrayContaining(['config.schema.json', 'prompts/build.md', 'prompts/logic.md', 'dist/index.js']),
    );
    expect(files('runner-pytest')).toContain('python/suture_pytest_plugin.py');
    expect(files('runner-jest')).toContain('reporter/suture-jest-reporter.cjs');
    expect(files('cli')).toContain('dist/bin.js');
  });

  it('carry the metadata npm shows, and plugins a peer dependency on @suture/core', () => {
    for (const p of packed) {
      const pkg = JSON.parse(tarballFile(p.tarball, 'package.json')) as Record<string, unknown>;
      expect(pkg, p.name).not.toHaveProperty('private');
      expect(pkg, p.name).toMatchObject({
        license: 'MIT',
        description: expect.any(String),
        keywords: expect.arrayContaining(['suture']),
        homepage: `https://github.com/suture-dev/suture/tree/main/packages/${p.dir}#readme`,
        repository: { url: 'git+https://github.com/suture-dev/suture.git', directory: `packages/${p.dir}` },
        bugs: { url: 'https://github.com/suture-dev/suture/issues' },
        engines: { node: expect.any(String) },
        publishConfig: { access: 'public' },
      });
      if (p.dir !== 'core' && p.dir !== 'cli')
        expect(pkg.peerDependencies, p.name).toMatchObject({ '@suture/core': expect.any(String) });
    }
  });
});

describe('`npm install -D @suture/cli @suture/runner-pytest @suture/fixer-hints` from the tarballs', () => {
  it('installs without TypeScript, which only JavaScript/TypeScript hints need', async () => {
    expect(install.code, install.stderr).toBe(0);
    const modules = join(app, 'node_modules');
    for (const name of ['@suture/cli', '@suture/core', '@suture/runner-pytest', '@suture/fixer-hints'])
      expect(JSON.parse(await readFile(join(modules, name, 'package.json'), 'utf8'))).toMatchObject({ name });
    await expect(readFile(join(modules, 'typescript/package.json'))).rejects.toThrow(/ENOENT/);
  });

  it('warns of no peer dependency and holds one tree-sitter, the one the grammars load into', async () => {
    expect(npmWarnings(install.stderr), install.stderr).toMatchObject({ peer: 0, other: 0 });
    expect(await installedCopies(app, 'tree-sitter')).toEqual(['node_modules/tree-sitter@0.25.1']);
  });

  it('init finds the Python project and writes the config', async () => {
    const r = await npx(['init']);
    expect(r.output).toMatch(/found pytest project "py" in py/);
    expect(r.code).toBe(0);
    const config = JSON.parse(await readFile(join(app, 'suture.config.json'), 'utf8')) as unknown;
    expect(config).toMatchObject({
      projects: [{ name: 'py', root: 'py', runner: 'pytest' }],
      fixers: ['hints'],
    });
    git('add', 'suture.config.json');
    git('-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-qm', 'suture config');
  });

  it('doctor is ready, and warns that JavaScript/TypeScript hints need typescript', async () => {
    const r = await npx(['doctor']);
    expect(r.output).toMatch(/ok {4}py: @suture\/runner-pytest loaded/);
    expect(r.output).toMatch(/ok {4}py: pytest /);
    expect(r.output).toContain(
      'warn  @suture/fixer-hints: typescript is not installed: JavaScript/TypeScript hints are off\n      fix: npm install -D typescript',
    );
    expect(r.output).toContain('suture is ready');
    expect(r.code).toBe(0);
  });

  it('run reports the failure, exits 1 and leaves the tree as it was', async () => {
    const r = await npx(['run']);
    expect(r.output).toMatch(/NameError/);
    expect(r.output).toMatch(/totl/);
    expect(r.code).toBe(1);
    expect(git('status', '--porcelain')).toBe('');
  });

  it('run --fix heals it with the hints fixer and exits 0', async () => {
    const r = await npx(['run', '--fix']);
    expect(r.code, r.output).toBe(0);
    expect(await readFile(join(app, 'py/shop/cart.py'), 'utf8')).toMatch(/\n {4}return total\n$/);
    expect(git('status', '--porcelain')).toBe(' M py/shop/cart.py\n');
    expect(
      execFileSync('python3', ['-m', 'pytest', '-q'], { cwd: join(app, 'py'), encoding: 'utf8' }),
    ).toMatch(/2 passed/);
  });

  it('a config naming a runner that is not installed prints the command that installs it', async () => {
    const web = join(app, 'web');
    await mkdir(web);
    await writeFile(
      join(web, 'suture.config.json'),
      JSON.stringify({ projects: [{ name: 'web', root: '.', runner: 'jest' }] }),
    );
    const r = await npx(['run'], web);
    expect(r.output).toContain('npm install -D @suture/runner-jest');
    expect(r.code).toBe(2);
  });
});

describe('the C++ set from the tarballs', () => {
  it('holds one tree-sitter without the settings too: the runner names the one its grammar loads into', async () => {
    const plain = join(temp, 'cpp-plain');
    await mkdir(plain);
    await writeFile(join(plain, 'package.json'), '{ "name": "calc", "private": true }\n');
    // what npm resolves, not what runs: the install after the settings below compiles and loads it
    const r = await installTarballs(
      plain,
      SETS.cpp.map((dir) => packed.find((p) => p.dir === dir)!.tarball),
      { ignoreScripts: true },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(await installedCopies(plain, 'tree-sitter')).toEqual(['node_modules/tree-sitter@0.25.1']);
  }, 900_000);
});

describe("the C++ set from the tarballs, after the guide's install settings", () => {
  it('installs with no warning at all and one tree-sitter, into which the C++ grammar loads', async () => {
    const readme = readFileSync(join(REPO, 'docs/guide/getting-started.md'), 'utf8');
    const settings = /<!-- install-settings -->\n\n```sh\n(.+)\n```/.exec(readme)?.[1];
    expect(settings, 'docs/guide/getting-started.md: the command under <!-- install-settings -->').toMatch(
      /^npm pkg set /,
    );
    const cpp = join(temp, 'cpp');
    await mkdir(cpp);
    await writeFile(join(cpp, 'package.json'), '{ "name": "calc", "private": true }\n');
    execFileSync('sh', ['-c', settings!], { cwd: cpp, env: userEnv() });
    const r = await installTarballs(
      cpp,
      SETS.cpp.map((dir) => packed.find((p) => p.dir === dir)!.tarball),
    );
    expect(r.code, r.stderr).toBe(0);
    expect(npmWarnings(r.stderr), r.stderr).toEqual({ peer: 0, scripts: 0, other: 0 });
    expect(await installedCopies(cpp, 'tree-sitter')).toEqual(['node_modules/tree-sitter@0.25.1']);
    const parsed = execFileSync(
      'node',
      [
        '-e',
        "const P = require('tree-sitter'); const p = new P(); p.setLanguage(require('tree-sitter-cpp')); process.stdout.write(p.parse('int f() { return 1; }').rootNode.type)",
      ],
      { cwd: cpp, encoding: 'utf8' },
    );
    expect(parsed).toBe('translation_unit');
  }, 900_000);
});
