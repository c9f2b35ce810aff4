import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, PluginError } from '../api/errors.js';
import { silentLogger } from '../testing/conformance-utils.js';
import { createGateOptions } from './gate-options.js';
import { loadConfig } from './load-config.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'suture-config-'));
  await mkdir(join(dir, 'py'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const write = (name: string, text: string): Promise<void> => writeFile(join(dir, name), text);
const output = { stream: { write: () => true }, env: {} };

describe('loadConfig', () => {
  it('loads JSON found by walking up, with defaults', async () => {
    await write(
      'suture.config.json',
      JSON.stringify({ projects: [{ name: 'py', root: 'py', runner: 'pytest' }] }),
    );
    const loaded = await loadConfig({ cwd: join(dir, 'py') });
    expect(loaded.dir).toBe(dir);
    expect(loaded.config.fixers).toEqual(['@suture/fixer-hints']);
    expect(loaded.config.heal.maxAttempts).toBe(3);
  });

  it('refuses a sandboxEnv name that marks a secret or an LLM setting, naming the entry', async () => {
    const config = (names: string[]) =>
      JSON.stringify({ projects: [{ name: 'py', root: 'py', runner: 'pytest' }], sandboxEnv: names });
    await write('suture.config.json', config(['FEATURE_FLAGS', 'DEPLOY_TOKEN']));
    await expect(loadConfig({ cwd: dir })).rejects.toThrow(/sandboxEnv\[1\]: "DEPLOY_TOKEN" names a secret/);
    await write('suture.config.json', config(['ANTHROPIC_BASE_URL']));
    await expect(loadConfig({ cwd: dir })).rejects.toThrow(/sandboxEnv\[0\]: "ANTHROPIC_BASE_URL"/);
    await write('suture.config.json', config(['FEATURE_FLAGS']));
    expect((await loadConfig({ cwd: dir })).config.sandboxEnv).toEqual(['FEATURE_FLAGS']);
  });

  it('loads YAML, .mjs and .ts (defineConfig) configs', async () => {
    await write(
      'a.yaml',
      'projects:\n  - name: py\n    root: py\n    runner: [pytest, { python: python3 }]\nheal:\n  maxAttempts: 2\n',
    );
    expect((await loadConfig({ cwd: dir, file: 'a.yaml' })).config.heal.maxAttempts).toBe(2);
    await write(
      'b.mjs',
      "export default { projects: [{ name: 'py', root: 'py', runner: 'pytest' }], concurrency: 4 };\n",
    );
    expect((await loadConfig({ cwd: dir, file: 'b.mjs' })).config.concurrency).toBe(4);
    await write(
      'c.ts',
      "const config: { projects: Array<{ name: string; root: string; runner: string }> } = { projects: [{ name: 'py', root: 'py', runner: 'pytest' }] };\nexport default config;\n",
    );
    expect((await loadConfig({ cwd: dir, file: 'c.ts' })).config.projects[0]!.name).toBe('py');
  });

  it('names the file, the key path, the expectation and the valid keys', async () => {
    await write(
      'suture.config.json',
      JSON.stringify({
        projects: [
          { name: 'py', root: 'py', runner: 'pytest' },
          { name: 'x', root: 'py', runner: 42 },
        ],
        heal: { maxAtempts: 2 },
      }),
    );
    const error = await loadConfig({ cwd: dir }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message).toMatch(/^suture\.config\.json|suture\.config\.json: invalid config/);
    expect(message).toMatch(
      /projects\[1\]\.runner: expected a plugin name or \[name, options\], found number 42/,
    );
    expect(message).toMatch(/heal: unknown key "maxAtempts"; valid keys are .*"maxAttempts"/);
  });

  it('takes sandboxHome paths in the home and refuses one that leaves it, naming the key', async () => {
    const config = (sandboxHome: string[]): Promise<void> =>
      write(
        'suture.config.json',
        JSON.stringify({ projects: [{ name: 'py', root: 'py', runner: 'pytest' }], sandboxHome }),
      );
    await config(['~/.cache/pip', '.m2/repository']);
    expect((await loadConfig({ cwd: dir })).config.sandboxHome).toEqual(['~/.cache/pip', '.m2/repository']);
    await config(['~/../other/.aws']);
    await expect(loadConfig({ cwd: dir })).rejects.toThrow(/sandboxHome\[0\]: may not leave your home/);
    await config(['/etc']);
    await expect(loadConfig({ cwd: dir })).rejects.toThrow(/sandboxHome\[0\]: a path in your home/);
  });

  it('reports JSON syntax errors with a position, missing roots and duplicate names', async () => {
    await write('suture.config.json', '{ "projects": [ }');
    await expect(loadConfig({ cwd: dir })).rejects.toThrow(/invalid JSON/);
    await write(
      'suture.config.json',
      JSON.stringify({ projects: [{ name: 'py', root: 'nope', runner: 'pytest' }] }),
    );
    await expect(loadConfig({ cwd: dir })).rejects.toThrow(
      /projects\[0\]\.root: folder "nope" does not exist/,
    );
    await write(
      'suture.config.json',
      JSON.stringify({
        projects: [
          { name: 'py', root: 'py', runner: 'pytest' },
          { name: 'py', root: 'py', runner: 'pytest' },
        ],
      }),
    );
    await expect(loadConfig({ cwd: dir })).rejects.toThrow(
      /projects\[1\]\.name: duplicate project name "py"/,
    );
  });

  it('reads a config saved with a byte order mark, in JSON and in YAML', async () => {
    const project = { projects: [{ name: 'py', root: 'py', runner: 'pytest' }] };
    await write('suture.config.json', `\uFEFF${JSON.stringify(project)}`);
    expect((await loadConfig({ cwd: dir })).config.projects[0]!.name).toBe('py');
    await write('b.yaml', '\uFEFFprojects:\n  - name: yml\n    root: py\n    runner: pytest\n');
    expect((await loadConfig({ cwd: dir, file: 'b.yaml' })).config.projects[0]!.name).toBe('yml');
  });

  it('refuses a folder given as the config file, naming the file inside it', async () => {
    await mkdir(join(dir, 'conf'));
    await writeFile(join(dir, 'conf', 'suture.config.yaml'), 'projects: []\n');
    const error = await loadConfig({ cwd: dir, file: 'conf' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(
      /^--config conf: .*conf is a folder, not a config file; pass the file itself: --config conf\/suture\.config\.yaml$/,
    );
    const empty = await loadConfig({ cwd: dir, file: 'py' }).catch((e: unknown) => e);
    expect((empty as Error).message).toMatch(
      /is a folder, not a config file; give one of suture\.config\.ts, /,
    );
  });

  it('warns about a second config file beside the one it reads', async () => {
    await write(
      'suture.config.json',
      JSON.stringify({ projects: [{ name: 'py', root: 'py', runner: 'pytest' }] }),
    );
    await write('suture.config.yaml', 'projects: []\n');
    const loaded = await loadConfig({ cwd: dir });
    expect(loaded.file).toBe(join(dir, 'suture.config.json'));
    expect(loaded.warnings).toEqual([
      expect.stringMatching(
        /suture\.config\.yaml is not used: suture\.config\.json is read first \(order: .*\); remove one of them$/,
      ),
    ]);
    // a file given with --config is the user's choice: nothing to warn about
    expect((await loadConfig({ cwd: dir, file: 'suture.config.json' })).warnings).toEqual([]);
  });

  it("refuses a project root outside the config file's folder, naming the key", async () => {
    await mkdir(join(dir, 'repo'));
    await writeFile(
      join(dir, 'repo', 'suture.config.json'),
      JSON.stringify({
        projects: [
          { name: 'py', root: 'py', runner: 'pytest' },
          { name: 'up', root: '../..', runner: 'pytest' },
        ],
      }),
    );
    await mkdir(join(dir, 'repo', 'py'));
    const error = await loadConfig({ cwd: join(dir, 'repo') }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).keyPath).toBe('projects[1].root');
    expect((error as Error).message).toMatch(
      /^suture\.config\.json: projects\[1\]\.root: "\.\.\/\.\." resolves to .*, outside the config file's folder .*repo, which is the repository suture gates; give a folder inside it, or move the config file up$/,
    );
  });

  it('says how to create a config when there is none', async () => {
    await expect(loadConfig({ cwd: join(dir, 'py') })).rejects.toThrow(/run `suture init`/);
  });
});

describe('plugin loading', () => {
  const plugin = (body: string): Promise<void> => write('plugin.mjs', body);
  const config = async (runner: unknown, extra: object = {}): Promise<void> =>
    write(
      'suture.config.json',
      JSON.stringify({ projects: [{ name: 'py', root: 'py', runner }], fixers: [], reporters: [], ...extra }),
    );
  const gateOptions = async () =>
    createGateOptions(await loadConfig({ cwd: dir }), { mode: 'check', logger: silentLogger, output });

  it('prints the install command for a missing package, naming the config entry', async () => {
    await config('@acme/suture-runner-nope');
    await expect(gateOptions()).rejects.toThrow(
      /^@acme\/suture-runner-nope \(suture\.config\.json#projects\[0\]\.runner\): cannot find package "@acme\/suture-runner-nope"; install it with `npm install -D @acme\/suture-runner-nope`/,
    );
  });

  it('suggests the alias a misspelled plugin name was meant to be, instead of installing a stranger package', async () => {
    await config('pytst');
    await expect(gateOptions()).rejects.toThrow(
      /^pytst \(suture\.config\.json#projects\[0\]\.runner\): unknown plugin "pytst"; did you mean "pytest" \(@suture\/runner-pytest\)\?$/,
    );
    // Aliases match exactly; a name that differs only in case is one too.
    await config('PyTest');
    await expect(gateOptions()).rejects.toThrow(
      /^PyTest \(suture\.config\.json#projects\[0\]\.runner\): unknown plugin "PyTest"; did you mean "pytest" \(@suture\/runner-pytest\)\?$/,
    );
  });

  it('passes the config folder to a factory, so option paths resolve from the config file', async () => {
    await plugin(`export default function (options, context) {
      return { name: 'ctx-runner', apiVersion: 1, language: 'x', supportsSelection: false, async run() { throw new Error('configDir=' + context.configDir); },
        analyzer: () => ({ name: 'a', apiVersion: 1, analyze: async () => [], scope: async () => ({ entries: [] }) }) };
    }`);
    await config('./plugin.mjs');
    const options = await gateOptions();
    await expect(options.projects[0]!.runner.run({} as never)).rejects.toThrow(`configDir=${dir}`);
  });

  it('loads a local plugin by relative path with options, and wraps its throws', async () => {
    await plugin(`export default function (options) {
      if (typeof options.label !== 'string') throw new Error('option "label" is required');
      return { name: 'local-runner', apiVersion: 1, language: 'x', supportsSelection: false,
        async run() { throw new Error('toolchain missing: install foo'); },
        analyzer: () => ({ name: 'a', apiVersion: 1, analyze: async () => [], scope: async () => ({ entries: [] }) }) };
    }`);
    await config(['./plugin.mjs', { label: 'x' }]);
    const options = await gateOptions();
    const runner = options.projects[0]!.runner;
    expect(runner.name).toBe('local-runner');
    const error = await runner.run({} as never).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PluginError);
    expect((error as Error).message).toBe(
      'local-runner (suture.config.json#projects[0].runner): toolchain missing: install foo',
    );
    await config(['./plugin.mjs', {}]);
    await expect(gateOptions()).rejects.toThrow(
      /\.\/plugin\.mjs \(suture\.config\.json#projects\[0\]\.runner\): option "label" is required/,
    );
  });

  it('refuses a wrong shape and a wrong apiVersion, saying what was expected', async () => {
    await plugin("export default { name: 'r', apiVersion: 1, language: 'x' };");
    await config('./plugin.mjs');
    await expect(gateOptions()).rejects.toThrow(/a runner plugin must have a "run" function/);
    await write(
      'plugin7.mjs',
      "export default { name: 'r', apiVersion: 7, language: 'x', supportsSelection: true, run() {} };",
    );
    await config('./plugin7.mjs');
    await expect(gateOptions()).rejects.toThrow(
      /needs plugin API 7, but this @suture\/core \S+ speaks API 1; upgrade suture/,
    );
  });

  it('turns zod option errors into readable lines', async () => {
    await plugin(`import { z } from '${new URL('../../dist/index.js', import.meta.url).href}';
      export default function (options) { z.object({ depth: z.number() }).strict().parse(options); return {}; }`);
    await config(['./plugin.mjs', { depth: 'deep' }]);
    await expect(gateOptions()).rejects.toThrow(
      /invalid options:\n {2}- depth: Invalid input: expected number, received string \(found "deep"\)/,
    );
  });

  it('rejects an unknown project and a fixer that is not configured', async () => {
    await plugin(
      "export default () => ({ name: 'r', apiVersion: 1, language: 'x', supportsSelection: true, run() {}, analyzer: () => ({ name: 'a', apiVersion: 1, analyze() {}, scope() {} }) });",
    );
    await config('./plugin.mjs');
    const loaded = await loadConfig({ cwd: dir });
    await expect(
      createGateOptions(loaded, { mode: 'check', logger: silentLogger, output, projects: ['web'] }),
    ).rejects.toThrow(/unknown project "web"; suture\.config\.json defines: py/);
    await expect(
      createGateOptions(loaded, { mode: 'check', logger: silentLogger, output, fixers: ['claude'] }),
    ).rejects.toThrow(/--fixer claude: not in suture\.config\.json#fixers/);
  });

  it('loads no fixer for --no-heal, which asks none, and every fixer otherwise', async () => {
    await plugin(
      "export default () => ({ name: 'r', apiVersion: 1, language: 'x', supportsSelection: true, run() {}, analyzer: () => ({ name: 'a', apiVersion: 1, analyze() {}, scope() {} }) });",
    );
    await write(
      'fixer.mjs',
      "globalThis.sutureFixerLoads = (globalThis.sutureFixerLoads ?? 0) + 1; export default () => ({ name: 'f', apiVersion: 1, propose() {} });",
    );
    await config('./plugin.mjs', { fixers: ['./fixer.mjs', './missing-fixer.mjs'] });
    const loaded = await loadConfig({ cwd: dir });
    const noHeal = await createGateOptions(loaded, { mode: 'no-heal', logger: silentLogger, output });
    expect(noHeal.fixers).toEqual([]);
    expect((globalThis as { sutureFixerLoads?: number }).sutureFixerLoads).toBeUndefined();
    // the same config in check mode loads the ladder, and the missing fixer is an error naming its entry
    await expect(createGateOptions(loaded, { mode: 'check', logger: silentLogger, output })).rejects.toThrow(
      /^\.\/missing-fixer\.mjs \(suture\.config\.json#fixers\[1\]\): file .*missing-fixer\.mjs does not exist/,
    );
    expect((globalThis as { sutureFixerLoads?: number }).sutureFixerLoads).toBe(1);
    // --fixer with --no-heal still loads the ladder to check the name against it
    await expect(
      createGateOptions(loaded, { mode: 'no-heal', logger: silentLogger, output, fixers: ['f'] }),
    ).rejects.toThrow(/^\.\/missing-fixer\.mjs \(suture\.config\.json#fixers\[1\]\)/);
  });
});
