import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createGateOptions, loadConfig, runGate } from '@suture/core/internal';
import { silentLogger } from '@suture/core/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';

// The project lives under the repository, where its local runner file resolves @suture/core.
const TMP = fileURLToPath(new URL('../../../../.tmp/', import.meta.url));
const built = fileURLToPath(new URL('../dist/index.js', import.meta.url));
let root: string;

beforeAll(async () => {
  await mkdir(TMP, { recursive: true });
  root = await mkdtemp(join(TMP, 'annotations-'));
  await cp(fileURLToPath(new URL('./fixtures/shop', import.meta.url)), root, { recursive: true });
  // the reporter as a user names a local plugin: a path relative to the config file
  const config = {
    projects: [{ name: 'shop', root: '.', runner: './runner.mjs' }],
    fixers: [],
    reporters: [[relative(root, built), { output: 'annotations.txt' }]],
  };
  await writeFile(join(root, 'suture.config.json'), JSON.stringify(config, null, 2));
});
afterAll(() => rm(root, { recursive: true, force: true }));

it('is loaded from suture.config.json by relative path and annotates what still fails', async () => {
  const loaded = await loadConfig({ cwd: root });
  const options = await createGateOptions(loaded, {
    mode: 'check',
    logger: silentLogger,
    output: { stream: { write: () => true }, env: {} },
  });
  const report = await runGate(options);
  expect(report.exitCode).toBe(1);
  const lines = (await readFile(join(root, 'annotations.txt'), 'utf8')).trim().split('\n');
  expect(lines).toEqual([
    expect.stringMatching(
      /^::error file=tests\/total\.test\.mjs,line=4,title=suture%3A unfixable in shop::tests\/total\.test\.mjs: AssertionError: .*6 !== 5%0A/,
    ),
  ]);
});
