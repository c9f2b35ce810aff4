import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Does the project run its tests as native ES modules? Jest needs Node's
 * `--experimental-vm-modules` for them, and the project's own `npm test` usually passes it through
 * NODE_OPTIONS, which suture does not go through. Signs: `"type": "module"` in package.json, or a
 * Jest config that lists `extensionsToTreatAsEsm`.
 */
export async function usesNativeEsm(root: string): Promise<boolean> {
  const pkg = await readFile(join(root, 'package.json'), 'utf8').then(
    (t) => JSON.parse(t) as { type?: string; jest?: { extensionsToTreatAsEsm?: unknown } },
    () => undefined,
  );
  if (pkg?.type === 'module' || pkg?.jest?.extensionsToTreatAsEsm) return true;
  const configs = (await readdir(root).catch(() => [] as string[])).filter((f) =>
    /^jest\.config\.(js|cjs|mjs|ts|cts|mts|json)$/.test(f),
  );
  for (const file of configs) {
    if ((await readFile(join(root, file), 'utf8').catch(() => '')).includes('extensionsToTreatAsEsm'))
      return true;
  }
  return false;
}

/** Node flags for Jest: the VM-modules flag (without its warning) unless NODE_OPTIONS has it. */
export function nodeFlags(esm: boolean, nodeOptions: string | undefined): string[] {
  if (!esm || nodeOptions?.includes('--experimental-vm-modules')) return [];
  return ['--experimental-vm-modules', '--disable-warning=ExperimentalWarning'];
}
