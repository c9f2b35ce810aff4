import { access, readFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPORTER = fileURLToPath(new URL('../reporter/suture-jest-reporter.cjs', import.meta.url));
/** The script that starts the project's Jest with process.argv as a plain `jest` run has it. */
export const ENTRY = fileURLToPath(new URL('../reporter/jest-entry.cjs', import.meta.url));

/** The version of the Jest whose `bin/jest.js` this is, when its package (jest or jest-cli) says it. */
export async function jestVersion(script: string): Promise<string | undefined> {
  return readFile(join(dirname(dirname(script)), 'package.json'), 'utf8').then(
    (t) => {
      const pkg = JSON.parse(t) as { name?: string; version?: string };
      return pkg.name === 'jest' || pkg.name === 'jest-cli' ? pkg.version : undefined;
    },
    () => undefined,
  );
}

/** The project's own Jest: `node_modules/jest/bin/jest.js` found walking up from the root. */
export async function resolveJest(
  root: string,
  configured?: string,
): Promise<{ script: string; version?: string } | undefined> {
  if (configured) return { script: isAbsolute(configured) ? configured : resolve(root, configured) };
  let dir = root;
  for (;;) {
    const pkgDir = join(dir, 'node_modules', 'jest');
    const script = join(pkgDir, 'bin', 'jest.js');
    if (
      await access(script).then(
        () => true,
        () => false,
      )
    ) {
      const version = await jestVersion(script);
      return { script, ...(version ? { version } : {}) };
    }
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}
