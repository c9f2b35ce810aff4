import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { nodeFlags, usesNativeEsm } from './esm.js';

let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

async function project(files: Record<string, string>): Promise<string> {
  dir = await mkdtemp(join(tmpdir(), 'suture-jest-esm-'));
  for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text);
  return dir;
}

describe('usesNativeEsm', () => {
  it('reads "type": "module" and a Jest config in package.json', async () => {
    expect(await usesNativeEsm(await project({ 'package.json': '{"type":"module"}' }))).toBe(true);
    expect(
      await usesNativeEsm(await project({ 'package.json': '{"jest":{"extensionsToTreatAsEsm":[".ts"]}}' })),
    ).toBe(true);
  });

  it('reads extensionsToTreatAsEsm in a jest.config file of any extension', async () => {
    expect(
      await usesNativeEsm(
        await project({
          'package.json': '{}',
          'jest.config.mjs': "export default { extensionsToTreatAsEsm: ['.ts'] };\n",
        }),
      ),
    ).toBe(true);
  });

  it('is false for a CommonJS project, and for a folder without package.json', async () => {
    expect(
      await usesNativeEsm(
        await project({
          'package.json': '{"type":"commonjs"}',
          'jest.config.js': "module.exports = { testEnvironment: 'node' };\n",
        }),
      ),
    ).toBe(false);
    expect(await usesNativeEsm(await project({}))).toBe(false);
  });
});

describe('nodeFlags', () => {
  it('adds the VM-modules flag without its warning, unless NODE_OPTIONS has it already', () => {
    expect(nodeFlags(true, undefined)).toEqual([
      '--experimental-vm-modules',
      '--disable-warning=ExperimentalWarning',
    ]);
    expect(nodeFlags(true, '--max-old-space-size=4096 --experimental-vm-modules')).toEqual([]);
    expect(nodeFlags(false, undefined)).toEqual([]);
  });
});
