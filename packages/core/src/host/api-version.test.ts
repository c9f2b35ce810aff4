import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_VERSION, type Fixer } from '../api/plugin.js';
import { PluginError } from '../api/errors.js';
import { apiUpgradeHint, checkApiVersion, coreVersion, declaredRange } from './api-version.js';
import { loadPlugin, splitSpec } from './load-plugin.js';

describe('checkApiVersion', () => {
  // a core two versions on, still loading the one before: how a deprecation window looks
  const core = { min: 2, max: 3 };

  it('reads apiVersion alone as exactly that version', () => {
    expect(declaredRange({ apiVersion: 2 })).toEqual({ min: 2, max: 2 });
    expect(checkApiVersion({ apiVersion: 2 }, core)).toEqual({ ok: true, version: 2 });
    expect(checkApiVersion({ apiVersion: 3 }, core)).toEqual({ ok: true, version: 3 });
  });

  it('loads a plugin whose apiRange meets the core, at the newest version both speak', () => {
    expect(checkApiVersion({ apiVersion: 1, apiRange: { min: 1, max: 2 } }, core)).toEqual({
      ok: true,
      version: 2,
    });
    expect(checkApiVersion({ apiVersion: 3, apiRange: { min: 3, max: 4 } }, core)).toEqual({
      ok: true,
      version: 3,
    });
  });

  it('says the plugin must move when it is older than the core loads', () => {
    const check = checkApiVersion({ apiVersion: 1 }, core);
    expect(check).toMatchObject({ ok: false, upgrade: 'plugin' });
    expect(check.ok || check.reason).toMatch(
      /written for plugin API 1, which .* no longer loads \(it speaks APIs 2 to 3\)/,
    );
  });

  it('says core must move when the plugin needs a newer API', () => {
    const check = checkApiVersion({ apiVersion: 4, apiRange: { min: 4, max: 5 } }, core);
    expect(check).toMatchObject({ ok: false, upgrade: 'core' });
    expect(check.ok || check.reason).toMatch(
      /needs plugin APIs 4 to 5, but this @suture\/core .* speaks APIs 2 to 3/,
    );
  });

  it('refuses declarations that are not versions or ranges, naming the key', () => {
    for (const [plugin, key] of [
      [{}, /"apiVersion" must be a positive integer .* got nothing/],
      [{ apiVersion: '1' }, /"apiVersion" must be a positive integer .* got "1"/],
      [{ apiVersion: 1.5 }, /"apiVersion" must be a positive integer/],
      [{ apiVersion: 2, apiRange: { min: 3, max: 2 } }, /"apiRange" must be \{ min, max \}/],
      [{ apiVersion: 2, apiRange: [1, 2] }, /"apiRange" must be \{ min, max \}/],
      [
        { apiVersion: 1, apiRange: { min: 2, max: 3 } },
        /"apiVersion" 1 lies outside its own "apiRange" 2 to 3/,
      ],
    ] as const) {
      const check = checkApiVersion(plugin, core);
      expect(check).toMatchObject({ ok: false, upgrade: 'declaration' });
      expect(check.ok || check.reason).toMatch(key);
    }
  });
});

describe('loading plugins by API version', () => {
  let dir: string;
  const origin = { configFile: 'suture.config.json', keyPath: 'fixers[0]' };
  const fixer = (api: string): string =>
    `export default (options, context) => ({ name: 'f', ${api}, async propose() { return { verdict: 'unfixable', diagnosis: String(context.apiVersion) }; } });\n`;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'suture-api-'));
    const pkg = async (name: string, api: string): Promise<void> => {
      await mkdir(join(dir, 'node_modules', name), { recursive: true });
      await writeFile(
        join(dir, 'node_modules', name, 'package.json'),
        JSON.stringify({ name, type: 'module', exports: './index.js' }),
      );
      await writeFile(join(dir, 'node_modules', name, 'index.js'), fixer(api));
    };
    await pkg('suture-fixer-future', `apiVersion: ${API_VERSION + 1}`);
    await pkg('suture-fixer-old', 'apiVersion: 0');
    await pkg(
      'suture-fixer-ranged',
      `apiVersion: ${API_VERSION}, apiRange: { min: ${API_VERSION}, max: ${API_VERSION + 3} }`,
    );
    await writeFile(join(dir, 'future.mjs'), fixer(`apiVersion: ${API_VERSION + 1}`));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  const load = (spec: string): Promise<Fixer> => loadPlugin('fixer', splitSpec(spec, origin), dir);

  it('loads a plugin whose range reaches past this core and tells its factory the version in use', async () => {
    const plugin = await loadPlugin('fixer', splitSpec('suture-fixer-ranged', origin), dir);
    expect(plugin.apiRange).toEqual({ min: API_VERSION, max: API_VERSION + 3 });
    const answer = await plugin.propose({} as never, {} as never);
    expect(answer).toMatchObject({ diagnosis: String(API_VERSION) });
  });

  it('tells the user to upgrade core, with the npm command, for a plugin made for a newer API', async () => {
    const error = await load('suture-fixer-future').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PluginError);
    expect((error as Error).message).toBe(
      `suture-fixer-future (suture.config.json#fixers[0]): needs plugin API ${API_VERSION + 1}, but this @suture/core ${coreVersion()} speaks API ${API_VERSION}; upgrade suture: \`npm install -D @suture/cli@latest @suture/core@latest\` (or use a release of the plugin made for this core)`,
    );
  });

  it('says which file to update when a local plugin needs another API', async () => {
    await expect(load('./future.mjs')).rejects.toThrow(
      /^\.\/future\.mjs \(suture\.config\.json#fixers\[0\]\): needs plugin API \d+, .*; upgrade suture/,
    );
  });

  it('refuses a plugin without a usable apiVersion, saying what to declare', async () => {
    await expect(load('suture-fixer-old')).rejects.toThrow(
      /suture-fixer-old \(suture\.config\.json#fixers\[0\]\): "apiVersion" must be a positive integer .* got 0; declare `apiVersion: API_VERSION` imported from @suture\/core/,
    );
  });
});

describe('apiUpgradeHint', () => {
  const tooOld = checkApiVersion({ apiVersion: 1 }, { min: 2, max: 2 });
  if (tooOld.ok) throw new Error('unreachable');

  it('gives the npm command for a published plugin that is too old', () => {
    expect(apiUpgradeHint(tooOld, { id: 'suture-runner-go', isPath: false })).toBe(
      'upgrade the plugin: `npm install -D suture-runner-go@latest` (or keep a @suture/core that still speaks its API)',
    );
  });

  it('names the file of a local plugin that is too old', () => {
    expect(apiUpgradeHint(tooOld, { id: './plugins/go.mjs', isPath: true })).toMatch(
      /^update \.\/plugins\/go\.mjs to plugin API \d+; docs\/compatibility\.md lists what changed/,
    );
  });
});
