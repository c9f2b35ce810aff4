import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, suture, workspace } from './cli-support.js';

afterAll(cleanup);

/** Records every module a process loads: ES modules through a load hook, CommonJS from require's cache at exit. */
const RECORDER = `
import { appendFileSync } from 'node:fs';
import { createRequire, register } from 'node:module';
const out = process.env.SUTURE_TEST_MODULES;
register('./hooks.mjs', import.meta.url, { data: { out } });
process.on('exit', () => {
  const cache = createRequire(import.meta.url).cache;
  appendFileSync(out, Object.keys(cache).map((f) => 'cjs ' + f + '\\n').join(''));
});
`;
const HOOKS = `
import { appendFileSync } from 'node:fs';
let out;
export function initialize(data) { out = data.out; }
export async function load(url, context, next) {
  appendFileSync(out, 'esm ' + url + '\\n');
  return next(url, context);
}
`;

/**
 * What a green run has no use for: analysis, fixers' SDKs, config formats it was not given,
 * reports it was not asked for, globs (only a fix's paths and configured secret files need them).
 */
const NOT_ON_A_GREEN_RUN = [
  'tree-sitter',
  'tree-sitter-python',
  'openai',
  '@anthropic-ai/sdk',
  'yaml',
  'jiti',
  'fast-xml-parser',
  'diff',
  'picomatch',
];

async function loadedBy(dir: string, args: string[]): Promise<{ code: number | null; modules: string[] }> {
  const tools = join(dir, '.recorder');
  await mkdir(tools, { recursive: true });
  await writeFile(join(tools, 'recorder.mjs'), RECORDER);
  await writeFile(join(tools, 'hooks.mjs'), HOOKS);
  const out = join(tools, `modules-${args[0]}.txt`);
  await writeFile(out, '');
  const r = await suture(args, dir, {
    NODE_OPTIONS: `--import=${pathToFileURL(join(tools, 'recorder.mjs')).href}`,
    SUTURE_TEST_MODULES: out,
  });
  const modules = (await readFile(out, 'utf8'))
    .split('\n')
    .filter(Boolean)
    .map((l) => l.replace(/^(esm|cjs) /, '').replace(/^file:\/\//, ''))
    .filter((m) => !m.startsWith('node:') && !m.includes('/.recorder/'));
  return { code: r.code, modules };
}

const fromPackage = (modules: readonly string[], name: string): string[] =>
  modules.filter((m) => m.includes(`/node_modules/${name}/`));

describe('what suture loads', () => {
  it('`suture --version` loads the command-line parser and nothing of the engine', async () => {
    const dir = await workspace();
    const { code, modules } = await loadedBy(dir, ['--version']);
    expect(code).toBe(0);
    expect(modules.some((m) => m.endsWith('/cli/dist/bin.js'))).toBe(true);
    expect(modules.filter((m) => m.includes('/core/dist/') || m.includes('/node_modules/zod/'))).toEqual([]);
    expect(modules.length).toBeLessThan(15);
  });

  it('a green run with three fixers configured loads no analyzer grammar, fixer SDK or unasked report library', async () => {
    const dir = await workspace();
    await mkdir(join(dir, 'tests'));
    await writeFile(join(dir, 'tests', 'test_ok.py'), 'def test_ok():\n    assert 1 + 1 == 2\n');
    await writeFile(
      join(dir, 'suture.config.json'),
      JSON.stringify({
        projects: [{ name: 'py', root: '.', runner: 'pytest' }],
        fixers: ['hints', 'claude', ['openai', { model: 'gpt-4o-mini' }]],
        reporters: ['json'],
      }),
    );
    const { code, modules } = await loadedBy(dir, ['run']);
    expect(code).toBe(0);
    // the recorder saw the run's own modules: the runner, every fixer and the engine (zod is
    // bundled into the engine's files)
    for (const part of [
      '/runner-pytest/dist/index.js',
      '/fixer-hints/dist/index.js',
      '/llm-claude-cli/dist/index.js',
      '/llm-openai/dist/index.js',
      '/core/dist/internal.js',
    ])
      expect(
        modules.some((m) => m.includes(part)),
        part,
      ).toBe(true);
    for (const name of NOT_ON_A_GREEN_RUN) expect(fromPackage(modules, name), name).toEqual([]);
    // each package loads as a few bundled files, not a module per source file
    expect(modules.filter((m) => m.includes('/core/dist/')).length).toBeLessThan(20);
    expect(modules.filter((m) => m.includes('/node_modules/zod/'))).toEqual([]);
  });

  it("the engine's zod holds its English messages only: the other locales say where to take them from", async () => {
    const core = pathToFileURL(join(import.meta.dirname, '../../../core/dist/index.js')).href;
    const { z } = (await import(core)) as typeof import('@suture/core');
    expect(typeof z.locales.en().localeError).toBe('function');
    expect(z.string().safeParse(1).error?.issues[0]?.message).toBe(
      'Invalid input: expected string, received number',
    );
    expect(() => z.locales.fr()).toThrow(
      'import the "fr" locale from zod itself (import { fr } from "zod/locales")',
    );
    expect(() => z.core.locales.de()).toThrow(/"de" locale from zod itself/);
  });
});
