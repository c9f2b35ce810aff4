import { execFileSync } from 'node:child_process';
import { mkdir, readdir, readFile, realpath, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { requireToolchain } from '@suture/core/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, REPO, suture, workspace } from './cli-support.js';
import { gitlabCases, schemaErrors } from './junit-readers.js';

afterAll(cleanup);

const SHOP = join(REPO, 'packages/runner-pytest/test/e2e/shop');
const JEST_BASIC = join(REPO, 'packages/runner-jest/test/e2e/basic');
const CTEST_BROKEN = join(REPO, 'packages/runner-ctest/test/e2e/broken');

/** A monorepo as CI meets it: two Jest projects with the same test file, pytest, and C++ that does not build. */
async function monorepo(): Promise<string> {
  const dir = await workspace();
  for (const [from, to] of [
    [SHOP, 'shop'],
    [JEST_BASIC, 'apps/web'],
    [JEST_BASIC, 'apps/admin'],
    [CTEST_BROKEN, 'native'],
  ] as const) {
    await mkdir(join(dir, to), { recursive: true });
    execFileSync('cp', ['-r', `${from}/.`, join(dir, to)]);
  }
  const config = {
    projects: [
      { name: 'shop', root: 'shop', runner: ['pytest', { env: { SUTURE_FLAKY_MARKER: '/nonexistent/x' } }] },
      { name: 'web', root: 'apps/web', runner: 'jest' },
      { name: 'admin', root: 'apps/admin', runner: 'jest' },
      { name: 'native', root: 'native', runner: 'ctest' },
    ],
    fixers: ['hints'],
    reporters: ['console', 'json', 'junit', 'markdown', 'patch', 'bugs'],
  };
  await writeFile(join(dir, 'suture.config.json'), JSON.stringify(config, null, 2));
  return dir;
}

async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, e.name);
    if (e.isDirectory()) out.push(...(await filesUnder(path)));
    else out.push(path);
  }
  return out;
}

describe('results.xml as CI servers read it, and no machine path in any report', () => {
  it('is valid against junit-10.xsd, reads right in GitLab, and every file the run writes is repository-relative', async (t) => {
    requireToolchain(t, { command: 'xmllint', install: 'apt-get install libxml2-utils' });
    const dir = await monorepo();
    // outside a GitLab CI job, as where this suite runs may be one
    const r = await suture(['run'], dir, { GITLAB_CI: undefined });
    expect(r.code).toBe(1);
    const [run] = await readdir(join(dir, '.suture/runs'));
    const runDir = join(dir, '.suture/runs', run!);
    const xmlFile = join(runDir, 'results.xml');
    const xml = await readFile(xmlFile, 'utf8');

    // Jenkins: the xunit plugin's schema accepts the file ...
    expect(schemaErrors(xmlFile)).toBe('');
    // ... and would refuse what results.xml used to hold: a file attribute on a test case
    const attacked = join(dir, 'attacked.xml');
    await writeFile(attacked, xml.replace('<testcase ', '<testcase file="shop/tests/test_env.py" '));
    expect(schemaErrors(attacked)).toMatch(/attribute 'file' is not allowed/);

    // GitLab: every case named, classed by its repository-relative test file, with a time
    const cases = gitlabCases(xml);
    expect(cases.every((c) => typeof c.name === 'string' && typeof c.classname === 'string')).toBe(true);
    expect(cases.every((c) => !Number.isNaN(Number(c.time)))).toBe(true);
    const classes = new Set(cases.map((c) => String(c.classname)));
    expect(classes).toEqual(
      new Set([
        'shop.tests.test_env',
        'shop.tests.test_pricing',
        'shop.tests.test_stock',
        'apps.web.__tests__.cart',
        'apps.admin.__tests__.cart',
        'native',
      ]),
    );
    const web = cases.filter((c) => c.suite === 'web');
    expect(web.filter((c) => c.status === 'failed').length).toBeGreaterThan(0);
    expect(web.some((c) => c.status === 'skipped')).toBe(true);
    const native = cases.filter((c) => c.suite === 'native');
    expect(native.map((c) => c.status)).toEqual(['error']);

    // the count of tests is the console's: a build error is an error case, not a test that ran
    const total = /failures remain: (\d+) tests/.exec(r.stderr)?.[1];
    expect(total).toBeDefined();
    expect(/<testsuites [^>]*tests="(\d+)"/.exec(xml)?.[1]).toBe(total);
    expect(/<testsuite name="native" tests="(\d+)"/.exec(xml)?.[1]).toBe('0');

    // the console and summary.md say which project's cart.test.js failed
    const summary = await readFile(join(runDir, 'summary.md'), 'utf8');
    for (const text of [r.stderr, summary]) {
      expect(text).toContain('apps/web/__tests__/cart.test.js:9');
      expect(text).toContain('apps/admin/__tests__/cart.test.js:9');
      expect(text).not.toMatch(/[[`]__tests__\/cart\.test\.js/);
    }
    expect(xml).toContain('name="suture.patch" value=".suture/runs/');

    // no file of the run names the checkout: not the root, not its real path
    const roots = [...new Set([dir, await realpath(dir)])];
    const written = await filesUnder(runDir);
    expect(written.map((f) => f.slice(runDir.length + 1))).toEqual(
      expect.arrayContaining(['report.json', 'results.xml', 'summary.md', 'fixes.patch']),
    );
    for (const file of written) {
      const text = await readFile(file, 'utf8');
      for (const root of roots)
        expect({ file, absolute: text.includes(root) }).toEqual({ file, absolute: false });
    }
    const report = JSON.parse(await readFile(join(runDir, 'report.json'), 'utf8')) as {
      root: string;
      runDir: string;
      projects: Array<{ root: string }>;
    };
    expect(report.root).toBe('.');
    expect(report.runDir).toBe(`.suture/runs/${run}`);
    expect(report.projects.map((p) => p.root)).toEqual(['shop', 'apps/web', 'apps/admin', 'native']);
  }, 600_000);

  it("in a GitLab CI job, gives each test case the repository-relative file GitLab's report links", async () => {
    const dir = await workspace();
    for (const to of ['apps/web', 'apps/admin']) {
      await mkdir(join(dir, to), { recursive: true });
      execFileSync('cp', ['-r', `${JEST_BASIC}/.`, join(dir, to)]);
    }
    const projects = [
      { name: 'web', root: 'apps/web', runner: 'jest' },
      { name: 'admin', root: 'apps/admin', runner: 'jest' },
    ];
    const xmlOf = async (reporters: unknown[], env: NodeJS.ProcessEnv): Promise<string> => {
      await writeFile(join(dir, 'suture.config.json'), JSON.stringify({ projects, reporters }));
      const r = await suture(['run', '--no-heal'], dir, env);
      expect(r.code, r.stderr).toBe(1);
      const runs = (await readdir(join(dir, '.suture/runs'))).sort();
      return readFile(join(dir, '.suture/runs', runs.at(-1)!, 'results.xml'), 'utf8');
    };

    const gitlab = gitlabCases(await xmlOf(['junit'], { GITLAB_CI: 'true' }));
    expect(gitlab.length).toBeGreaterThan(0);
    expect(new Set(gitlab.map((c) => `${c.suite} ${String(c.file)}`))).toEqual(
      new Set(['web apps/web/__tests__/cart.test.js', 'admin apps/admin/__tests__/cart.test.js']),
    );
    // the reporter option wins over the job's variable: a Jenkins file stays schema-valid
    const jenkins = gitlabCases(await xmlOf([['junit', { flavor: 'jenkins' }]], { GITLAB_CI: 'true' }));
    expect(jenkins.map((c) => c.file)).toEqual(gitlab.map(() => undefined));
    const asked = gitlabCases(await xmlOf([['junit', { flavor: 'gitlab' }]], {}));
    expect(asked.map((c) => c.file)).toEqual(gitlab.map((c) => c.file));
  }, 600_000);
});
