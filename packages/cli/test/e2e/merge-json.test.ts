import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, REPO, suture, workspace } from './cli-support.js';

afterAll(cleanup);

/** Two real pytest projects: one green, one with a wrong value no fixer may touch. */
async function twoProjects(): Promise<string> {
  const dir = await workspace();
  const files: Record<string, string> = {
    'calc/calc.py': 'def add(a, b):\n    return a + b\n',
    'calc/test_calc.py': 'from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n',
    'rates/rates.py': 'def vat(x):\n    return x * 0.2\n',
    'rates/test_rates.py': 'from rates import vat\n\n\ndef test_vat():\n    assert vat(10) == 3\n',
  };
  for (const [path, text] of Object.entries(files)) {
    await mkdir(join(dir, path, '..'), { recursive: true });
    await writeFile(join(dir, path), text);
  }
  const config = {
    projects: [
      { name: 'calc', root: 'calc', runner: 'pytest' },
      { name: 'rates', root: 'rates', runner: 'pytest' },
    ],
    reporters: ['json'],
  };
  await writeFile(join(dir, 'suture.config.json'), JSON.stringify(config, null, 2));
  return dir;
}

describe('suture merge --json', () => {
  it('prints the merged report on stdout, as run --json does, and nothing else there', async () => {
    const dir = await twoProjects();
    expect((await suture(['run', 'calc', '--no-heal', '--out', 'a'], dir)).code).toBe(0);
    expect((await suture(['run', 'rates', '--no-heal', '--out', 'b'], dir)).code).toBe(1);
    const out = join(dir, 'merged');
    const r = await suture(['merge', 'a', 'b', '--out', out, '--json'], dir);
    expect(r.code).toBe(1);
    const printed = JSON.parse(r.stdout) as {
      runId: string;
      exitCode: number;
      projects: Array<{ name: string }>;
    };
    expect(printed.projects.map((p) => p.name)).toEqual(['calc', 'rates']);
    expect(printed.exitCode).toBe(1);
    // the very report the json reporter wrote, and the human line on stderr only
    expect(printed).toEqual(JSON.parse(await readFile(join(out, 'report.json'), 'utf8')));
    expect(r.stderr).toContain('merged 2 run(s), 2 project(s)');
    expect(r.stdout).not.toContain('merged 2 run(s)');
  });

  it('prints nothing on stdout without --json, and names the option in --help', async () => {
    const dir = await twoProjects();
    expect((await suture(['run', 'calc', '--no-heal', '--out', 'a'], dir)).code).toBe(0);
    const r = await suture(['merge', 'a', '--out', join(dir, 'merged')], dir);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    const help = await suture(['merge', '--help'], REPO);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/--json\s+Print the merged JSON report on stdout/);
  });
});
