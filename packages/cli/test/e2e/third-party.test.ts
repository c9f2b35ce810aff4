import { execFileSync } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, REPO, suture, workspace } from './cli-support.js';

afterAll(cleanup);

const PY_FIXTURE = join(REPO, 'packages/runner-pytest/test/e2e/shop');
const PLUGIN = join(REPO, 'examples/plugins/suture-fixer-regex/index.mjs');
const rule = { rules: [{ file: 'inventory/stock.py', pattern: 'return totl\\b', replace: 'return total' }] };

async function project(fixer: unknown): Promise<string> {
  const dir = await workspace();
  await mkdir(join(dir, 'app'));
  execFileSync('cp', ['-r', `${PY_FIXTURE}/.`, join(dir, 'app')]);
  await writeFile(
    join(dir, 'suture.config.json'),
    JSON.stringify({
      projects: [{ name: 'app', root: 'app', runner: 'pytest' }],
      fixers: [fixer],
      reporters: ['json'],
    }),
  );
  return dir;
}

describe('a third-party fixer plugin', () => {
  it('is loaded by relative path and heals a real pytest failure', async () => {
    const dir = await project('hints');
    const config = JSON.parse(await readFile(join(dir, 'suture.config.json'), 'utf8'));
    config.fixers = [[`./${relative(dir, PLUGIN)}`, rule]];
    await writeFile(join(dir, 'suture.config.json'), JSON.stringify(config));
    const r = await suture(['run', '--fix', '--json'], dir);
    const report = JSON.parse(r.stdout);
    const typo = report.projects[0].failures.find((f: { failure: { title: string } }) =>
      f.failure.title.includes('totl'),
    );
    expect(typo.outcome).toBe('healed');
    expect(typo.attempts[0].fixer).toBe('suture-fixer-regex');
    expect(await readFile(join(dir, 'app/inventory/stock.py'), 'utf8')).toContain('return total\n');
  });

  it('is loaded by package name, and its own option schema rejects bad options', async () => {
    const dir = await project(['suture-fixer-regex', rule]);
    const r = await suture(['run', '--json'], dir);
    expect(
      JSON.parse(r.stdout).projects[0].failures.some(
        (f: { outcome: string; attempts: Array<{ fixer: string }> }) =>
          f.outcome === 'healed' && f.attempts[0]!.fixer === 'suture-fixer-regex',
      ),
    ).toBe(true);
    const bad = await project(['suture-fixer-regex', { rules: [{ patern: 'x', replace: 'y' }] }]);
    const e = await suture(['run'], bad);
    expect(e.code).toBe(2);
    expect(e.stderr).toMatch(/suture-fixer-regex \(suture\.config\.json#fixers\[0\]\): invalid options:/);
    expect(e.stderr).toMatch(/unknown key "patern"/);
  });
});
