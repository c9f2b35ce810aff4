import { execFileSync } from 'node:child_process';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, REPO, spawnSuture, suture, workspace } from './cli-support.js';

afterAll(cleanup);

async function scratchFiles(dir: string): Promise<string[]> {
  const runs = join(dir, '.suture/runs');
  const found: string[] = [];
  for (const run of await readdir(runs).catch(() => [])) {
    const work = join(runs, run, 'work');
    const files = await readdir(work, { recursive: true }).catch(() => undefined);
    if (files) found.push(...files.map((f) => join(run, 'work', String(f))));
  }
  return found;
}

describe('raw output at rest', () => {
  it('`suture recover` removes the scratch output (raw reports, captured output) a killed run left under .suture/runs/<id>/work', async () => {
    const dir = await workspace();
    await mkdir(join(dir, 'app'));
    execFileSync('cp', ['-a', `${join(REPO, 'packages/runner-pytest/test/e2e/shop')}/.`, join(dir, 'app')]);
    await writeFile(
      join(dir, 'app/conftest.py'),
      'import time\n\n\ndef pytest_runtest_setup(item):\n    time.sleep(0.3)\n',
    );
    await writeFile(
      join(dir, 'suture.config.json'),
      JSON.stringify({
        projects: [{ name: 'app', root: 'app', runner: 'pytest' }],
        fixers: ['hints'],
        reporters: ['json'],
      }),
    );
    const child = spawnSuture(['run', '--fix'], dir);
    const exited = new Promise((r) => child.on('exit', r));
    const end = Date.now() + 60_000;
    while ((await scratchFiles(dir)).length === 0 && Date.now() < end)
      await new Promise((r) => setTimeout(r, 20));
    expect((await scratchFiles(dir)).length).toBeGreaterThan(0);
    child.kill('SIGKILL');
    await exited;
    const recovered = await suture(['recover'], dir);
    expect(recovered.code).toBe(0);
    expect(await scratchFiles(dir)).toEqual([]);
  });
});
