import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { DoctorCheck } from '@suture/core';
import { afterAll, describe, expect, it } from 'vitest';
import vitest from '../../src/index.js';
import { cleanup, copy, NODE22_BIN, pathFor, VITEST_DIRS, type Major } from './support.js';

const outside: string[] = [];
afterAll(async () => {
  await cleanup();
  await Promise.all(outside.map((d) => rm(d, { recursive: true, force: true })));
});

/** The Node running these tests, first on the PATH the doctor reads. */
const env = { PATH: dirname(process.execPath) };
const nodeMajor = Number(process.versions.node.split('.')[0]);

async function doctor(root: string, vitestDir?: string): Promise<Record<string, DoctorCheck>> {
  const checks = await vitest({ env, ...(vitestDir ? { vitestDir } : {}) }).doctor!(root);
  return Object.fromEntries(checks.map((c) => [c.name, c]));
}

/** A project outside the repository, where no node_modules up the tree holds a Vitest. */
async function bare(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'suture-vitest-doctor-'));
  outside.push(dir);
  await writeFile(join(dir, 'package.json'), JSON.stringify({ name: 'bare', private: true, type: 'module' }));
  return dir;
}

const versionOf = async (major: Major): Promise<string> =>
  (JSON.parse(await readFile(join(VITEST_DIRS[major], 'package.json'), 'utf8')) as { version: string })
    .version;

describe('suture doctor on a Vitest project', () => {
  it.each(['3', '4', '5'] as const)(
    'reports the Vitest %s the project resolves, with its version and folder',
    async (major) => {
      const root = await copy('basic', major);
      const checks = await doctor(root);
      const version = await versionOf(major);
      expect(version.split('.')[0]).toBe(major);
      expect(checks.vitest).toMatchObject({
        status: 'ok',
        message: expect.stringMatching(`^vitest ${version} at /`),
      });
      expect(checks.vitest!.message).toMatch(new RegExp(`vitest-${major}$`));
      expect(checks.vitest!.fix).toBeUndefined();
    },
  );

  it("checks the Node on the PATH against the Vitest's engines: Vitest 5 needs Node 22.12 or newer", async () => {
    const checks = await doctor(await copy('basic', '5'));
    const wanted = '^22.12.0 || ^24.0.0 || >=26.0.0';
    // these tests run on Node 20 and on Node 22+ (CI): each has its own answer
    if (nodeMajor < 22)
      expect(checks.node).toMatchObject({
        status: 'error',
        message: `Node.js ${process.versions.node} at ${process.execPath}: Vitest ${await versionOf('5')} needs Node ${wanted}`,
        fix: `install a Node in ${wanted}, or put one first on PATH`,
      });
    else
      expect(checks.node).toMatchObject({
        status: 'ok',
        message: `Node.js ${process.versions.node} at ${process.execPath}`,
      });
    expect((await doctor(await copy('basic', '4'))).node).toMatchObject({ status: 'ok' });
  });

  it.skipIf(nodeMajor >= 22 || pathFor('5') === undefined)(
    'passes Vitest 5 with the Node 22 first on the PATH, and names that Node',
    async () => {
      const checks = Object.fromEntries(
        (await vitest({ env: { PATH: pathFor('5')! } }).doctor!(await copy('basic', '5'))).map((c) => [
          c.name,
          c,
        ]),
      );
      expect(checks.node).toMatchObject({
        status: 'ok',
        message: expect.stringMatching(`^Node.js 22\\.\\d+\\.\\d+ at ${NODE22_BIN}node$`),
      });
      expect(checks.vitest).toMatchObject({ status: 'ok' });
    },
  );

  it('says Vitest is missing, with the install command, for a project without it', async () => {
    const root = await bare();
    const checks = await doctor(root);
    expect(checks.vitest).toEqual({
      name: 'vitest',
      status: 'error',
      message: `Vitest is not installed for ${root}`,
      fix: 'npm install -D vitest',
    });
    expect(checks.node).toMatchObject({ status: 'ok' });
  });

  it('refuses a Vitest older than 3, whose reporter API it cannot read, with the upgrade command', async () => {
    const root = await bare();
    const dir = join(root, 'node_modules', 'vitest');
    await mkdir(dir, { recursive: true });
    await writeFile(
      join(dir, 'package.json'),
      JSON.stringify({ name: 'vitest', version: '2.1.9', bin: 'vitest.mjs' }),
    );
    const checks = await doctor(root);
    expect(checks.vitest).toMatchObject({
      status: 'error',
      message: `vitest 2.1.9 at ${dir}: suture runs Vitest 3 or newer`,
      fix: 'npm install -D vitest@latest',
    });
  });

  it('names the option, not a missing install, when "vitestDir" points at a folder without Vitest', async () => {
    const root = await copy('basic', '4');
    const checks = await doctor(root, 'tools/vitest');
    expect(checks.vitest).toMatchObject({
      status: 'error',
      message: `the runner option "vitestDir" names ${join(root, 'tools/vitest')}, which is not the vitest package`,
      fix: expect.stringMatching(/point "vitestDir" at the project's node_modules\/vitest/),
    });
    // a folder that holds another package is no Vitest either
    await mkdir(join(root, 'tools/vitest'), { recursive: true });
    await writeFile(
      join(root, 'tools/vitest/package.json'),
      JSON.stringify({ name: 'jest', version: '30.0.0' }),
    );
    expect((await doctor(root, 'tools/vitest')).vitest).toMatchObject({ status: 'error' });
  });
});
