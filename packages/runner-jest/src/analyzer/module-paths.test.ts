import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { aliasCandidates, readModulePaths } from './module-paths.js';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'suture-module-paths-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('module paths', () => {
  it('reads tsconfig paths (comments, trailing commas) and maps a bare import to the project files they name', async () => {
    await writeFile(
      join(root, 'tsconfig.json'),
      '{\n  // aliases\n  "compilerOptions": { "baseUrl": ".", "paths": { "@app/*": ["src/app/*", "src/legacy/*"], "config": ["src/config.ts"], }, },\n}\n',
    );
    const paths = await readModulePaths(root);
    expect(aliasCandidates('@app/cart/total', paths)).toEqual([
      'src/app/cart/total',
      'src/legacy/cart/total',
      '@app/cart/total',
    ]);
    expect(aliasCandidates('config', paths)).toEqual(['src/config.ts', 'config']);
    expect(aliasCandidates('lodash', paths)).toEqual(['lodash']);
  });

  it("reads Jest's moduleNameMapper from jest.config.js and from package.json", async () => {
    await writeFile(
      join(root, 'jest.config.js'),
      "module.exports = {\n  moduleNameMapper: {\n    '^@/(.*)$': '<rootDir>/src/$1',\n    \"^~lib$\": '<rootDir>/lib/index.js',\n  },\n};\n",
    );
    await writeFile(
      join(root, 'package.json'),
      JSON.stringify({ jest: { moduleNameMapper: { '^#(.*)$': '<rootDir>/shared/$1' } } }),
    );
    const paths = await readModulePaths(root);
    expect(aliasCandidates('@/cart/total', paths)).toEqual(['src/cart/total']);
    expect(aliasCandidates('~lib', paths)).toEqual(['lib/index.js']);
    expect(aliasCandidates('#money', paths)).toEqual(['shared/money']);
  });
  it('follows extends: paths from a base config, resolved from the nearest baseUrl or the config that sets them', async () => {
    await mkdir(join(root, 'config'));
    await writeFile(
      join(root, 'config/tsconfig.base.json'),
      '{ "compilerOptions": { "paths": { "~lib/*": ["../src/lib/*"] } } }\n',
    );
    await writeFile(join(root, 'tsconfig.json'), '{ "extends": "./config/tsconfig.base" }\n');
    expect(aliasCandidates('~lib/range', await readModulePaths(root))).toEqual(['src/lib/range']);
    // a baseUrl set nearer is where the inherited paths start from
    await writeFile(
      join(root, 'config/tsconfig.base.json'),
      '{ "compilerOptions": { "paths": { "~lib/*": ["lib/*"] } } }\n',
    );
    await writeFile(
      join(root, 'tsconfig.json'),
      '{ "extends": "./config/tsconfig.base.json", "compilerOptions": { "baseUrl": "src" } }\n',
    );
    expect(aliasCandidates('~lib/range', await readModulePaths(root))).toEqual([
      'src/lib/range',
      'src/~lib/range',
    ]);
  });
});
