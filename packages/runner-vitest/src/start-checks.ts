import { access } from 'node:fs/promises';
import { resolve } from 'node:path';
import { nodeOnPath, nodeVersion } from './node-binary.js';
import { resolveVitest, satisfies, type ResolvedVitest } from './resolve-vitest.js';

/** The oldest Vitest whose reporter API (reported tasks, onTestCaseResult) the runner reads. */
export const MIN_VITEST_MAJOR = 3;

export type Start = { vitest: ResolvedVitest; node: string; nodeVersion?: string } | { error: string };

/** The project's Vitest and the Node to run it on, or what keeps them from running, with the fix. */
export async function startChecks(
  root: string,
  vitestDir: string | undefined,
  env: Record<string, string | undefined>,
): Promise<Start> {
  if (vitestDir) {
    const dir = resolve(root, vitestDir);
    const there = await access(resolve(dir, 'package.json')).then(
      () => true,
      () => false,
    );
    if (!there)
      return {
        error: `the runner option "vitestDir" names ${dir}, which holds no package.json: point it at the project's node_modules/vitest, or remove it to use the Vitest the project resolves`,
      };
  }
  const vitest = await resolveVitest(root, vitestDir);
  if (!vitest)
    return {
      error: vitestDir
        ? `the runner option "vitestDir" names ${resolve(root, vitestDir)}, which is not the vitest package`
        : `Vitest is not installed for ${root}: install it with \`npm install -D vitest\` (or set the runner option "vitestDir")`,
    };
  const major = Number(vitest.version.split('.')[0]);
  if (major < MIN_VITEST_MAJOR)
    return {
      error: `the project's Vitest is ${vitest.version} (${vitest.dir}): suture runs Vitest ${MIN_VITEST_MAJOR} or newer, whose reporter API reports each test; upgrade with \`npm install -D vitest@latest\``,
    };
  const node = nodeOnPath(env);
  const version = await nodeVersion(node);
  if (version && vitest.engines && !satisfies(version, vitest.engines))
    return {
      error: `Vitest ${vitest.version} needs Node ${vitest.engines}, and the node it would run on (${node}) is ${version}: install a Node in that range, or put one first on the PATH Vitest gets (the runner option "env": { "PATH": "<its bin folder>:..." })`,
    };
  return { vitest, node, ...(version ? { nodeVersion: version } : {}) };
}
