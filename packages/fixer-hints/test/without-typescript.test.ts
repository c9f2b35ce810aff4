import { execFileSync } from 'node:child_process';
import { cp, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const PKG = fileURLToPath(new URL('..', import.meta.url));
const require = createRequire(import.meta.url);
let dir: string;

interface Probe {
  reference: { verdict: string; diagnosis?: string };
  assertion: { verdict: string; diagnosis?: string };
  doctor: Array<{ name: string; status: string; message: string; fix?: string }>;
}

/**
 * The built fixer installed as a Python-only project gets it: TypeScript is an optional peer, and
 * nothing above a folder under the system temp folder provides it.
 */
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'suture-hints-no-ts-'));
  const modules = join(dir, 'node_modules');
  await mkdir(join(modules, '@suture/fixer-hints'), { recursive: true });
  await cp(join(PKG, 'dist'), join(modules, '@suture/fixer-hints/dist'), { recursive: true });
  await cp(join(PKG, 'package.json'), join(modules, '@suture/fixer-hints/package.json'));
  await symlink(dirname(require.resolve('@suture/core/package.json')), join(modules, '@suture/core'));
  await symlink(
    dirname(require.resolve('tree-sitter-python/package.json')),
    join(modules, 'tree-sitter-python'),
  );
  await writeFile(join(dir, 'main.js'), 'const total = 1;\nconsole.log(totl);\n');
  await writeFile(
    join(dir, 'probe.mjs'),
    `import hints from '@suture/fixer-hints';
import { sampleFixRequest, sampleFixerContext } from '@suture/core/testing';
const fixer = hints();
const project = { name: 'web', root: process.cwd(), language: 'javascript' };
const ask = (failure) =>
  fixer.propose(sampleFixRequest({ project, failure: { ...sampleFixRequest().failure, ...failure } }), sampleFixerContext({ root: process.cwd() }));
const reference = await ask({
  kind: 'exception',
  title: 'ReferenceError: totl is not defined',
  evidence: 'ReferenceError: totl is not defined\\n    at main.js:2:13',
  location: { file: 'main.js', line: 2 },
});
const assertion = await ask({ title: 'expect(received).toBe(expected)', evidence: 'Expected: 2\\nReceived: 1' });
process.stdout.write(JSON.stringify({ reference, assertion, doctor: await fixer.doctor() }));
`,
  );
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('the hints fixer where typescript is not installed', () => {
  it('passes a JavaScript case to the next fixer with the install command, and doctor warns', () => {
    expect(() => require.resolve('typescript', { paths: [dir] })).toThrow();
    const probe = JSON.parse(execFileSync('node', ['probe.mjs'], { cwd: dir, encoding: 'utf8' })) as Probe;
    expect(probe.reference).toMatchObject({
      verdict: 'unfixable',
      diagnosis: expect.stringMatching(
        /hints need the typescript package, which is not installed \(npm install -D typescript\); passed to the next fixer/,
      ),
    });
    // a failure the script hints do not handle says nothing about TypeScript
    expect(probe.assertion).toMatchObject({ verdict: 'unfixable' });
    expect(probe.assertion.diagnosis).not.toMatch(/typescript/);
    expect(probe.doctor).toContainEqual({
      name: 'typescript',
      status: 'warn',
      message: 'typescript is not installed: JavaScript/TypeScript hints are off',
      fix: 'npm install -D typescript',
    });
  });

  it('doctor names the versions it will use where they are installed', async () => {
    const { default: hints } = await import('../src/index.js');
    const checks = await hints().doctor!();
    expect(checks).toContainEqual(
      expect.objectContaining({
        name: 'typescript',
        status: 'ok',
        message: expect.stringMatching(/^typescript 5\.\d+/),
      }),
    );
    expect(checks).toContainEqual(expect.objectContaining({ name: '@types/node', status: 'ok' }));
  });
});
