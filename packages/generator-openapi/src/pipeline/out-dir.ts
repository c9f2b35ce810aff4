import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { ConfigError, type GeneratedFile } from '@suture/core';

/**
 * The output folder, emptied when it holds a suite written earlier (its api_contract.json); a
 * folder with other files is refused, so nothing of the user's is overwritten.
 */
export async function claimOutDir(outDir: string, shown: string): Promise<void> {
  const entries = await readdir(outDir).catch(() => [] as string[]);
  if (entries.length > 0) {
    if (!entries.includes('api_contract.json'))
      throw new ConfigError(
        `--out ${shown}: the folder holds files that are not a suite written by suture generate api; name an empty or new folder`,
      );
    for (const entry of entries) await rm(join(outDir, entry), { recursive: true, force: true });
  }
  await mkdir(outDir, { recursive: true });
}

export async function writeFiles(root: string, files: readonly GeneratedFile[]): Promise<void> {
  for (const f of files) {
    const target = join(root, f.file);
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, f.content);
  }
}
