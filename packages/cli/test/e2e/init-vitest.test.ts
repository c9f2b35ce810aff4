import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, suture, workspace } from './cli-support.js';

afterAll(cleanup);

async function write(dir: string, files: Record<string, string>): Promise<void> {
  for (const [file, text] of Object.entries(files)) {
    await mkdir(join(dir, file, '..'), { recursive: true });
    await writeFile(join(dir, file), text);
  }
}

const TEST = "import { expect, test } from 'vitest';\n\ntest('adds', () => expect(1 + 1).toBe(2));\n";

describe('suture init and doctor on Vitest projects', () => {
  it('names a Vitest project `vitest`, never `jest`, even beside Jest in its package.json; doctor checks its Vitest', async () => {
    const dir = await workspace();
    await write(dir, {
      // a Vitest config: Vitest's, though Jest is a dependency too (a migration half done)
      'web/package.json': JSON.stringify({
        name: 'web',
        devDependencies: { vitest: '^4.0.0', jest: '^30.0.0' },
      }),
      'web/vitest.config.ts': 'export default {};\n',
      'web/test/add.test.ts': TEST,
      // Vitest named by a script only
      'lib/package.json': JSON.stringify({ name: 'lib', scripts: { test: 'vitest run' } }),
      'lib/src/add.test.ts': TEST,
      // and a Jest project beside them
      'api/package.json': JSON.stringify({ name: 'api', devDependencies: { jest: '^30.0.0' } }),
      'api/__tests__/add.test.js': "test('adds', () => expect(1 + 1).toBe(2));\n",
    });
    const init = await suture(['init'], dir);
    expect(init.code, init.stdout + init.stderr).toBe(0);
    expect(init.stdout).toMatch(/found vitest project "web" in web \(vitest\.config\.ts\)/);
    const config = JSON.parse(await readFile(join(dir, 'suture.config.json'), 'utf8')) as {
      projects: Array<{ root: string; runner: unknown }>;
    };
    const runners = Object.fromEntries(
      config.projects.map((p) => [p.root, Array.isArray(p.runner) ? p.runner[0] : p.runner]),
    );
    expect(runners).toEqual({ web: 'vitest', lib: 'vitest', api: 'jest' });
    const doctor = await suture(['doctor'], dir);
    expect(doctor.stdout).toMatch(/ok +web: vitest 4\.\d+\.\d+/i);
  });
});
