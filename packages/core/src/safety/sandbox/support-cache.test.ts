import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cachedSupport } from './support-cache.js';
import type { IsolationSupport } from './support.js';
import { findSandboxTools, type SandboxTools } from './tools.js';

let base: string;
let env: NodeJS.ProcessEnv;
let probes: number;

beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'suture-support-cache-'));
  env = { ...process.env, SUTURE_STATE_DIR: join(base, 'state') };
  probes = 0;
});
afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

function tools(): SandboxTools {
  const found = findSandboxTools();
  if ('missing' in found) throw new Error(`missing ${found.missing.join(', ')}`);
  return found;
}

const answer = (t: SandboxTools, namespaces: boolean): IsolationSupport => ({
  tools: t,
  namespaces,
  overlay: namespaces,
  network: namespaces,
  readOnly: namespaces,
  procMount: false,
  reasons: namespaces ? [] : ['refused here'],
});

const probeGiving = (t: SandboxTools, namespaces: boolean) => async (): Promise<IsolationSupport> => {
  probes++;
  return answer(t, namespaces);
};

describe('the isolation probe kept on disk', () => {
  it('answers the next command from disk until what it depends on changes', async () => {
    const t = tools();
    expect(await cachedSupport(t, env, probeGiving(t, true))).toEqual(answer(t, true));
    expect(await cachedSupport(t, env, probeGiving(t, true))).toEqual(answer(t, true));
    expect(probes).toBe(1);
    // Another sh (a reinstalled tool) is another machine as far as the sandbox goes.
    const sh = join(base, 'sh');
    await copyFile(t.sh, sh);
    const other = { ...t, sh };
    expect(await cachedSupport(other, env, probeGiving(other, true))).toEqual(answer(other, true));
    expect(probes).toBe(2);
    await writeFile(sh, 'changed');
    await cachedSupport(other, env, probeGiving(other, true));
    expect(probes).toBe(3);
  });

  it('probes again over a damaged file and never keeps a machine without namespaces', async () => {
    const t = tools();
    await cachedSupport(t, env, probeGiving(t, true));
    const file = join(base, 'state', 'isolation-support.json');
    const saved = JSON.parse(await readFile(file, 'utf8')) as { key: string };
    await writeFile(file, JSON.stringify({ key: saved.key, support: { namespaces: 'yes' } }));
    await cachedSupport(t, env, probeGiving(t, true));
    expect(probes).toBe(2);
    await rm(file);
    expect((await cachedSupport(t, env, probeGiving(t, false))).namespaces).toBe(false);
    await expect(readFile(file)).rejects.toThrow(/ENOENT/);
    await cachedSupport(t, env, probeGiving(t, false));
    expect(probes).toBe(4);
  });
});
